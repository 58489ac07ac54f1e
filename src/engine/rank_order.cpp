// The ranking's order (rank.h rank_options): the Pareto frontier of (time, cost) and the sort by the objective
// (free tiers first, unknown metrics last, ties broken by id). No JSON, no UI.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "engine/rank_detail.h"

namespace gg::engine::rank_detail {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
bool known(double x) { return std::isfinite(x); }

// ---- ordering ----------------------------------------------------------------------------------------------------
// Objective metric, smaller is better; NaN = unknown.
double primary(const RankOption& o, Objective obj) {
    switch (obj) {
        case Objective::kCost: return o.cost_cny;
        case Objective::kTime: return o.kind == OptionKind::kRent && o.calendar_s > 0 ? o.calendar_s : o.time_s;
        case Objective::kValue: return o.value > 0 ? -o.value : kNaN;
    }
    return kNaN;
}
double secondary(const RankOption& o, Objective obj) { return obj == Objective::kTime ? o.cost_cny : o.time_s; }

// Free tiers that can do the job come first when cost or value is asked for (they cost nothing; their price is
// calendar time, shown beside them); by time they take their place by calendar time like any rental.
// Offers the user likely cannot use from where they are (kAccessLimited) follow every option they can use.
int group(const RankOption& o, Objective obj) {
    if (o.eligible && o.access_limited) return 3;
    if (o.eligible && o.free_tier && obj != Objective::kTime && known(o.time_s)) return 0;
    if (o.eligible) return known(primary(o, obj)) ? 1 : 2;
    return o.fits ? 4 : 5;
}

// An option's place in the order, computed once per option instead of in every comparison (RankOption is large).
// Unknown metrics (NaN, +-infinity) are stored as +infinity: a plain `<` puts them after every known one, tied.
struct SortKey {
    int group = 0;
    double primary = 0, secondary = 0;
    const std::string* id = nullptr;
    std::size_t index = 0;  // into the unsorted options
};
double sort_metric(double x) { return known(x) ? x : std::numeric_limits<double>::infinity(); }

}  // namespace

// Pareto frontier of (time, cost) among eligible options with both known: nobody else is at least as good in
// both and strictly better in one. Sweep in (time, cost) order keeping the lowest cost seen: O(n log n).
void mark_pareto(std::vector<RankOption>& options) {
    std::vector<RankOption*> pts;
    for (RankOption& a : options)
        if (a.eligible && known(a.time_s) && known(a.cost_cny)) pts.push_back(&a);
    std::sort(pts.begin(), pts.end(), [](const RankOption* a, const RankOption* b) {
        return a->time_s != b->time_s ? a->time_s < b->time_s : a->cost_cny < b->cost_cny;
    });
    double best_cost = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < pts.size(); ++i) {
        RankOption* a = pts[i];
        // Earlier points have time <= a's. Dominated iff one of them costs less, or costs the same and is
        // strictly faster; an identical (time, cost) twin of a frontier point stays on the frontier.
        const bool same_as_prev = i > 0 && pts[i - 1]->time_s == a->time_s && pts[i - 1]->cost_cny == a->cost_cny;
        a->pareto = a->cost_cny < best_cost || (same_as_prev && pts[i - 1]->pareto);
        best_cost = std::min(best_cost, a->cost_cny);
    }
}

// Sort small keys, then move the options into that order in place, one cycle of the permutation at a time
// (position i takes the option at keys[i].index; a placed position is marked): no second vector of options.
void order_by_objective(std::vector<RankOption>& options, Objective obj) {
    std::vector<SortKey> keys(options.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const RankOption& o = options[i];
        keys[i] = {group(o, obj), sort_metric(primary(o, obj)), sort_metric(secondary(o, obj)), &o.id, i};
    }
    std::sort(keys.begin(), keys.end(), [](const SortKey& a, const SortKey& b) {
        if (a.group != b.group) return a.group < b.group;
        if (a.primary != b.primary) return a.primary < b.primary;
        if (a.secondary != b.secondary) return a.secondary < b.secondary;
        return *a.id < *b.id;  // ids are unique: a total order, so the result is stable
    });
    constexpr std::size_t kPlaced = std::numeric_limits<std::size_t>::max();
    std::vector<RankOption>& v = options;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (keys[i].index == kPlaced) continue;
        RankOption held = std::move(v[i]);
        std::size_t j = i;
        while (keys[j].index != i) {
            const std::size_t from = keys[j].index;
            v[j] = std::move(v[from]);
            keys[j].index = kPlaced;
            j = from;
        }
        v[j] = std::move(held);
        keys[j].index = kPlaced;
    }
}

}  // namespace gg::engine::rank_detail
