#!/usr/bin/python3
"""Exact parameter counts of the GAN presets' generators and discriminators (issue 42).

StyleGAN2-ADA and StyleGAN3 networks are instantiated from the NVlabs repositories' own code (their CPU reference
fallbacks for the custom CUDA ops make construction work without a GPU): pass the unpacked trees with
--stylegan2-ada DIR (github.com/NVlabs/stylegan2-ada-pytorch, commit d72cc7d) and --stylegan3 DIR
(github.com/NVlabs/stylegan3, commit c233a91). The settings are train.py's: stylegan2-ada `--cfg=auto` for the
resolution (channel base 16384 below 512 px, else 32768; mapping depth 2; channel max 512; 4 FP16 levels;
conv_clamp 256; mbstd group min(batch_gpu, 4)); stylegan3 `--cfg=stylegan3-t|r` (cbase 32768, or 65536 with
channel max 1024 for -r; map 2; D as stylegan2's). DCGAN: the PyTorch DCGAN tutorial's networks
(pytorch/tutorials beginner_source/dcgan_faces_tutorial.py: nz=100, ngf=ndf=64, nc=3). pix2pix:
junyanz/pytorch-CycleGAN-and-pix2pix models/networks.py defaults for pix2pix (unet_256, ngf=64, batch norm,
use_dropout; basic 70x70 PatchGAN n_layers=3, ndf=64, input 6 channels), re-written here (not installed).

Output: JSON on stdout, {preset: {"G": n, "D": n, "G_tensors": n, "D_tensors": n}}.
"""
import argparse, json, sys
import torch
import torch.nn as nn


def count(m):
    ps = list(m.parameters())
    return sum(p.numel() for p in ps), len(ps)


def stylegan2_ada(root, res):
    sys.path.insert(0, root)
    from training import networks
    cbase = 32768 if res >= 512 else 16384
    common = dict(c_dim=0, img_resolution=res, img_channels=3)
    G = networks.Generator(z_dim=512, w_dim=512, mapping_kwargs=dict(num_layers=2),
                           synthesis_kwargs=dict(channel_base=cbase, channel_max=512, num_fp16_res=4, conv_clamp=256),
                           **common)
    D = networks.Discriminator(channel_base=cbase, channel_max=512, num_fp16_res=4, conv_clamp=256,
                               epilogue_kwargs=dict(mbstd_group_size=4), **common)
    sys.path.remove(root)
    for k in [k for k in sys.modules if k == 'training' or k.startswith('training.') or k.startswith('torch_utils') or k == 'dnnlib' or k.startswith('dnnlib.')]:
        del sys.modules[k]
    return G, D


def stylegan3(root, cfg, res):
    sys.path.insert(0, root)
    from training import networks_stylegan3, networks_stylegan2
    r = cfg == 'stylegan3-r'
    cbase, cmax = (65536, 1024) if r else (32768, 512)
    G = networks_stylegan3.Generator(z_dim=512, c_dim=0, w_dim=512, img_resolution=res, img_channels=3,
                                     mapping_kwargs=dict(num_layers=2), channel_base=cbase, channel_max=cmax,
                                     magnitude_ema_beta=0.5 ** (32 / (20 * 1e3)), conv_kernel=1 if r else 3,
                                     use_radial_filters=r)
    D = networks_stylegan2.Discriminator(c_dim=0, img_resolution=res, img_channels=3, channel_base=32768,
                                         channel_max=512, num_fp16_res=4, conv_clamp=256,
                                         epilogue_kwargs=dict(mbstd_group_size=4))
    sys.path.remove(root)
    for k in [k for k in sys.modules if k == 'training' or k.startswith('training.') or k.startswith('torch_utils') or k == 'dnnlib' or k.startswith('dnnlib.')]:
        del sys.modules[k]
    return G, D


def dcgan():
    nz, ngf, ndf, nc = 100, 64, 64, 3
    G = nn.Sequential(
        nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 8), nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
        nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False), nn.Tanh())
    D = nn.Sequential(
        nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
        nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
        nn.Conv2d(ndf * 2, ndf * 4, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 4), nn.LeakyReLU(0.2, inplace=True),
        nn.Conv2d(ndf * 4, ndf * 8, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 8), nn.LeakyReLU(0.2, inplace=True),
        nn.Conv2d(ndf * 8, 1, 4, 1, 0, bias=False), nn.Sigmoid())
    return G, D


class UnetBlock(nn.Module):
    # models/networks.py UnetSkipConnectionBlock with norm_layer=BatchNorm2d (so use_bias=False) and use_dropout.
    def __init__(self, outer_nc, inner_nc, input_nc=None, sub=None, outermost=False, innermost=False, dropout=False):
        super().__init__()
        input_nc = input_nc or outer_nc
        downconv = nn.Conv2d(input_nc, inner_nc, 4, 2, 1, bias=False)
        downrelu, downnorm = nn.LeakyReLU(0.2, True), nn.BatchNorm2d(inner_nc)
        uprelu, upnorm = nn.ReLU(True), nn.BatchNorm2d(outer_nc)
        if outermost:
            model = [downconv, sub, uprelu, nn.ConvTranspose2d(inner_nc * 2, outer_nc, 4, 2, 1), nn.Tanh()]
        elif innermost:
            model = [downrelu, downconv, uprelu, nn.ConvTranspose2d(inner_nc, outer_nc, 4, 2, 1, bias=False), upnorm]
        else:
            model = [downrelu, downconv, downnorm, sub, uprelu,
                     nn.ConvTranspose2d(inner_nc * 2, outer_nc, 4, 2, 1, bias=False), upnorm] + ([nn.Dropout(0.5)] if dropout else [])
        self.model = nn.Sequential(*model)


def pix2pix():
    ngf, ndf = 64, 64
    b = UnetBlock(ngf * 8, ngf * 8, innermost=True)
    for _ in range(3):  # num_downs - 5 = 3 for unet_256
        b = UnetBlock(ngf * 8, ngf * 8, sub=b, dropout=True)
    b = UnetBlock(ngf * 4, ngf * 8, sub=b)
    b = UnetBlock(ngf * 2, ngf * 4, sub=b)
    b = UnetBlock(ngf, ngf * 2, sub=b)
    G = UnetBlock(3, ngf, input_nc=3, sub=b, outermost=True)
    # NLayerDiscriminator(input_nc=6, ndf=64, n_layers=3, norm_layer=BatchNorm2d): use_bias False inside.
    seq = [nn.Conv2d(6, ndf, 4, 2, 1), nn.LeakyReLU(0.2, True)]
    mult = 1
    for n in range(1, 3):
        prev, mult = mult, min(2 ** n, 8)
        seq += [nn.Conv2d(ndf * prev, ndf * mult, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * mult), nn.LeakyReLU(0.2, True)]
    prev, mult = mult, min(2 ** 3, 8)
    seq += [nn.Conv2d(ndf * prev, ndf * mult, 4, 1, 1, bias=False), nn.BatchNorm2d(ndf * mult), nn.LeakyReLU(0.2, True)]
    seq += [nn.Conv2d(ndf * mult, 1, 4, 1, 1)]
    D = nn.Sequential(*seq)
    return G, D


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--stylegan2-ada', required=True)
    ap.add_argument('--stylegan3', required=True)
    a = ap.parse_args()
    out = {}
    def put(name, G, D):
        g, gt = count(G)
        d, dt = count(D)
        out[name] = {"G": g, "D": d, "G_tensors": gt, "D_tensors": dt}
        print(name, out[name], file=sys.stderr)
    put('dcgan-64', *dcgan())
    put('pix2pix-256', *pix2pix())
    for res in (128, 256, 512, 1024):
        put(f'stylegan2-ada-{res}', *stylegan2_ada(a.stylegan2_ada, res))
    for cfg in ('stylegan3-t', 'stylegan3-r'):
        for res in (128, 256, 512, 1024):
            put(f'{cfg}-{res}', *stylegan3(a.stylegan3, cfg, res))
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == '__main__':
    main()
