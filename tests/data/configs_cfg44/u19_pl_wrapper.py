# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of u12: pytorch_lightning spelt as its old package, the transformers model built in setup().
import pytorch_lightning as pl
import torch
from transformers import AutoModelForSeq2SeqLM


class Summariser(pl.LightningModule):
    def setup(self, stage=None):
        self.model = AutoModelForSeq2SeqLM.from_pretrained("t5-small", attn_implementation="sdpa")

    def training_step(self, batch, idx):
        return self.model(**batch).loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-4)


pl.Trainer(precision="16-mixed").fit(Summariser())
