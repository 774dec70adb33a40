# written for cfg36's tests (near miss): a script that loads a bare encoder (no task head, no settings) to embed images
import torch
from transformers import CLIPProcessor, CLIPVisionModel

proc = CLIPProcessor.from_pretrained("openai/clip-vit-base-patch32")
enc = CLIPVisionModel.from_pretrained("openai/clip-vit-base-patch32")
with torch.no_grad():
    feats = enc(**proc(images=[], return_tensors="pt")).pooler_output
