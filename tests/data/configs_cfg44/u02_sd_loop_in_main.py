# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of u01: the loop moved into main(), the imports of diffusers inside it.
import torch
import torch.nn.functional as F
from peft import LoraConfig, get_peft_model
from transformers import CLIPTextModel, CLIPTokenizer


def main(BASE="runwayml/stable-diffusion-v1-5"):
    from diffusers import AutoencoderKL, DDPMScheduler, UNet2DConditionModel

    tokenizer = CLIPTokenizer.from_pretrained(BASE, subfolder="tokenizer")
    text_encoder = CLIPTextModel.from_pretrained(BASE, subfolder="text_encoder", torch_dtype=torch.float16)
    vae = AutoencoderKL.from_pretrained(BASE, subfolder="vae", torch_dtype=torch.float16)
    unet = UNet2DConditionModel.from_pretrained(BASE, subfolder="unet")
    noise_scheduler = DDPMScheduler.from_pretrained(BASE, subfolder="scheduler")
    unet = get_peft_model(unet, LoraConfig(r=8, lora_alpha=8, target_modules=["to_q", "to_k", "to_v", "to_out.0"]))
    opt = torch.optim.AdamW([p for p in unet.parameters() if p.requires_grad], lr=1e-4)
    for batch in []:
        latents = vae.encode(batch["pixels"].half()).latent_dist.sample() * 0.18215
        noise = torch.randn_like(latents)
        t = torch.randint(0, 1000, (latents.shape[0],), device=latents.device)
        pred = unet(noise_scheduler.add_noise(latents, noise, t), t, text_encoder(batch["ids"])[0]).sample
        F.mse_loss(pred.float(), noise.float()).backward()
        opt.step()


if __name__ == "__main__":
    main()
