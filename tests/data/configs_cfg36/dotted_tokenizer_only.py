# written for cfg36's tests (near miss): `import transformers` for its tokenizer only; the model is the script's own
# torch module trained by its own loop: no transformers model, no Trainer
import torch
import transformers

tok = transformers.AutoTokenizer.from_pretrained("gpt2")
net = torch.nn.Sequential(torch.nn.Embedding(50257, 256), torch.nn.Linear(256, 50257))
opt = torch.optim.AdamW(net.parameters())
for batch in []:
    loss = net(tok(batch, return_tensors="pt").input_ids).mean()
    loss.backward()
    opt.step()
