# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A Lightning module wrapping a transformers model: Lightning's loop (round 3b: Lightning is a framework attn-doctor
# does not read).
import lightning as L
import torch
from transformers import AutoModelForCausalLM


class LitLM(L.LightningModule):
    def __init__(self, name="gpt2"):
        super().__init__()
        self.model = AutoModelForCausalLM.from_pretrained(name)

    def training_step(self, batch, idx):
        return self.model(**batch).loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-5)


L.Trainer(precision="bf16-mixed", max_epochs=1).fit(LitLM(), train_dataloaders=[])
