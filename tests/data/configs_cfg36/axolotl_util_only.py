# written for cfg36's tests (near miss): axolotl imported for a utility only; the training is the script's own loop
import torch
from axolotl.utils.dict import DictDefault

opts = DictDefault(lr=1e-4, flash_attention=True)
net = torch.nn.Linear(4, 4)
opt = torch.optim.AdamW(net.parameters(), lr=opts.lr)
