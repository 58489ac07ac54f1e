// The memory a job can have on a card: what nvidia-smi shows as the card's total, with ECC's share of the DRAM on
// the cards that keep check bits in it. Pure engine code: no JSON, no UI.
#pragma once

#include "engine/hardware.h"

namespace gg::engine {

// The ECC state a run has on a card.
enum class EccSetting : unsigned char {
    kDefault,  // as the card ships (GpuSpec::ecc_on_by_default): on for data-centre cards, off for the others
    kOn,       // the user turned ECC on (nvidia-smi -e 1 and a reboot)
    kOff,      // the user turned ECC off (nvidia-smi -e 0 and a reboot)
};

// Whether ECC keeps its check bits in the card's own DRAM (in-band ECC): NVIDIA cards with ECC on GDDR memory.
// HBM cards keep them apart (the A100 40GB shows 40960 MiB with ECC on), so ECC costs them no capacity.
bool ecc_in_band(const GpuSpec& gpu);

// Bytes ECC takes from the DRAM when on: 1/16 of the datasheet size on in-band cards, 0 elsewhere (card_memory.cpp
// gives the readings the 1/16 comes from).
double ecc_reserved_bytes(const GpuSpec& gpu);

// Whether ECC is on for a run on the card under a setting (kDefault: GpuSpec::ecc_on_by_default).
bool ecc_on(const GpuSpec& gpu, EccSetting setting);

// The bytes a run can have on the card, the figure every verdict compares with: the published nvidia-smi total
// (GpuSpec::visible_memory_bytes) moved by ECC's share when the run's ECC state differs from the reading's; the
// datasheet size (memory_bytes) less ECC's share when on, for a card without a reading.
double usable_memory_bytes(const GpuSpec& gpu, EccSetting setting = EccSetting::kDefault);

}  // namespace gg::engine
