// Internal to the ranking (rank.cpp, rank_order.cpp): the order rank_options puts its options in. Not part of the
// engine's API (rank.h is); no JSON or UI code.
#pragma once

#include <vector>

#include "engine/rank.h"

namespace gg::engine::rank_detail {

// Marks RankOption::pareto on the eligible options with a known time and cost that no other option beats in both.
void mark_pareto(std::vector<RankOption>& options);
// Sorts the options by group (free tiers, eligible, unknown, not fitting), the objective's metric, the other
// metric, then id.
void order_by_objective(std::vector<RankOption>& options, Objective obj);

}  // namespace gg::engine::rank_detail
