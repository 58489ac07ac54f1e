// Internal to the GAN engine (gan_nets.cpp, gan_stylegan3.cpp): builders of the networks' operation lists shared
// between the files. Not part of the engine's API (gan.h is); no JSON or UI code.
#pragma once

#include <string>

#include "engine/gan.h"

namespace gg::engine {

// NVlabs FullyConnectedLayer (Linear with lr multiplier + bias_act), fp32, per sample.
GanOp gan_fully_connected(const std::string& name, int in, int out, bool lrelu);

// The ADA 'bgc' augmentation pipe in front of D (gan_augment.cpp).
GanOp gan_augment_pipe(int resolution);

// StyleGAN3's generator (stylegan3 training/networks_stylegan3.py), gan_stylegan3.cpp.
void build_stylegan3_g(const GanSpec& spec, GanNetwork& g);

}  // namespace gg::engine
