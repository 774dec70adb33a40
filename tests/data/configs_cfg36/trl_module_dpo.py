# written for cfg36's tests: `import trl`, `trl.DPOTrainer(...)` with the model's name
import trl
from datasets import load_dataset

trl.DPOTrainer(model="Qwen/Qwen2.5-0.5B-Instruct", train_dataset=load_dataset("trl-lib/ultrafeedback_binarized",
                                                                               split="train")).train()
