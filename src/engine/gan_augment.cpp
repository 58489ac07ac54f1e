// The ADA augmentation pipeline (NVlabs stylegan2-ada-pytorch / stylegan3 training/augment.py, AugmentPipe with the
// 'bgc' set train.py uses for --aug=ada) as one operation in front of the discriminator: what it moves, launches and
// keeps per image D sees. No JSON or UI code.
#include "engine/gan_nets.h"

namespace gg::engine {

// Per image of R x R x 3 in fp32 (bytes 12 per pixel), forward:
// - geometric transforms (always executed: G_inv is a tensor whatever p is, so the `G_inv is not I_3` branch runs):
//   reflect pad (read R^2, write P^2), upfirdn2d upsample2d x2 (read P^2, write 4 P^2), affine_grid (a grid of
//   2 fp32 per upsampled pixel, 8 B x 4 R^2 written), grid_sample (reads the grid and about the input's 4 R^2, writes
//   4 R^2), upfirdn2d downsample2d (read 4 R^2, write R^2). P = R + the margin the batch's transforms need; taken as
//   R here (no margin: the lower bound, reached when p = 0; rotations and zoom-outs at p > 0 widen it towards 3R).
// - colour transforms: C[:, :3, :3] @ images + C[:, :3, 3:] (read and write R^2 twice).
// About 352 R^2 bytes. Kernels: 12 transforms, each drawing and masking its parameters (rand, floor/randn, rand, lt,
// where) and building a 3x3 / 4x4 matrix (constants stacked, a batched matmul), ~8 launches each, plus ~25 for the
// geometric pass (corner points, margin max/min, pad, two upfirdn2d, affine_grid, grid_sample, matrix products) and
// ~10 for the colour pass: ~130.
// Backward (the fakes in G's step, the reals in R1): grid_sample's backward scatters into the input (atomicAdd),
// upfirdn2d's backward is upfirdn2d again; the input-gradient pass costs twice the forward's bytes as for the other
// bandwidth-bound ops. Kept for it (only when the image requires a gradient): grid_sample's input (4 R^2 x 12 B) and
// grid (4 R^2 x 8 B).
GanOp gan_augment_pipe(int resolution) {
    const double px = double(resolution) * resolution;
    GanOp op;
    op.name = "augment_pipe";
    op.stream_bytes = 12.0 * (px + 2 * px + 5 * px + 4 * px + 4 * px + 5 * px + 4 * px) + 8.0 * 4 * px * 2;
    op.kernels = 130;
    op.saved_bytes = 0;  // D's own step (Dmain) sees images that need no gradient: nothing kept
    op.saved_input_grad_bytes = (12.0 + 8.0) * 4 * px;
    return op;
}

}  // namespace gg::engine
