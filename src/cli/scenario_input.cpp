// Reading and parsing the scenario argument of the scenario commands (see scenario_input.h).
#include "cli/scenario_input.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "catalog/catalog.h"
#include "catalog/json_text.h"
#include "cli/command.h"

namespace gg::cli {

namespace {
// Reads at most limit + 1 bytes (one more than allowed tells "too large" from "exactly the limit").
bool read_bounded(std::istream& in, std::string& text, std::size_t limit) {
    text.clear();
    char buffer[1 << 16];
    while (text.size() <= limit) {
        in.read(buffer, static_cast<std::streamsize>(std::min(sizeof buffer, limit + 1 - text.size())));
        const std::streamsize got = in.gcount();
        if (got <= 0) break;
        text.append(buffer, static_cast<std::size_t>(got));
    }
    return !in.bad();
}
}  // namespace

ReadStatus read_input_text(const std::string& path, std::string& text) {
    const std::size_t limit = catalog::kMaxJsonTextBytes;
    text.clear();
    if (path == "-") {
        if (!read_bounded(std::cin, text, limit)) return ReadStatus::kCannotRead;
        return text.size() > limit ? ReadStatus::kTooLarge : ReadStatus::kOk;
    }
    // std::ifstream opens a directory on Linux and then reads nothing: ask first.
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) return ReadStatus::kCannotRead;
    std::ifstream in(path, std::ios::binary);
    if (!in || !read_bounded(in, text, limit)) return ReadStatus::kCannotRead;
    return text.size() > limit ? ReadStatus::kTooLarge : ReadStatus::kOk;
}

std::string read_status_message(ReadStatus status, const std::string& path, const std::string& what) {
    const std::string name = path == "-" ? "on standard input" : "'" + catalog::printable(path, 200) + "'";
    if (status == ReadStatus::kTooLarge)
        return what + " " + name + " is larger than " + catalog::json_text_limit_words() +
               ", the most gpuguide reads; no scenario or data file needs that much";
    std::error_code error;
    if (path != "-" && std::filesystem::is_directory(path, error))
        return "cannot read " + what + " " + name + ": it is a directory, not a file";
    if (path != "-" && !std::filesystem::exists(path, error))
        return "cannot read " + what + " " + name + ": no such file";
    return "cannot read " + what + " " + name;
}

namespace {
// At most kShown problems, each made printable (control characters escaped, an echoed value cut short): a file with
// 200,000 unknown keys or a 5 MB model name still gets a readable answer.
void print_problems(const std::vector<catalog::Problem>& problems, const std::string& file) {
    constexpr std::size_t kShown = 20;
    for (std::size_t i = 0; i < problems.size() && i < kShown; ++i) {
        const catalog::Problem& p = problems[i];
        std::fprintf(stderr, "%s: %s: %s\n", catalog::printable(file.empty() ? p.file : file, 200).c_str(),
                     p.pointer.empty() ? "(document)" : catalog::printable(p.pointer, 120).c_str(),
                     catalog::printable(p.message, 2000).c_str());
    }
    if (problems.size() > kShown)
        std::fprintf(stderr, "... and %zu more problem(s)\n", problems.size() - kShown);
}
}  // namespace

int read_scenario_argument(const char* command, const std::vector<std::string>& args, ScenarioInput& out) {
    std::string path, user_data_path;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json") continue;  // JSON is the only output format; accepted for scripts that pass it
        if (a == "--user-data") {
            if (i + 1 >= args.size() || !user_data_path.empty()) {
                std::fprintf(stderr, "gpuguide %s: --user-data takes one FILE (see gpuguide %s --help)\n", command,
                             command);
                return kExitUsage;
            }
            user_data_path = args[++i];
            continue;
        }
        if (!path.empty() || (a.size() > 1 && a[0] == '-')) {
            std::fprintf(stderr, "gpuguide %s: unexpected argument '%s' (see gpuguide %s --help)\n", command, a.c_str(),
                         command);
            return kExitUsage;
        }
        path = a;
    }
    if (path.empty()) {
        std::fprintf(stderr, "gpuguide %s: expected SCENARIO.json or - (see gpuguide %s --help)\n", command, command);
        return kExitUsage;
    }
    if (!user_data_path.empty()) {
        std::string user_text;
        if (user_data_path == "-") {
            std::fprintf(stderr, "gpuguide %s: --user-data needs a FILE; standard input is for the scenario\n", command);
            return kExitUsage;
        }
        const ReadStatus read = read_input_text(user_data_path, user_text);
        if (read != ReadStatus::kOk) {
            std::fprintf(stderr, "gpuguide %s: %s\n", command,
                         read_status_message(read, user_data_path, "the user data").c_str());
            return read == ReadStatus::kTooLarge ? kExitUsage : kExitFailure;
        }
        std::vector<catalog::Problem> problems;
        out.user_catalog = catalog::merge_user_data(catalog::embedded_catalog(), user_text, problems);
        if (!problems.empty()) {  // the page keeps going without a bad record; a script wants to know
            print_problems(problems, user_data_path);
            return kExitUsage;
        }
        out.has_user_data = true;
    }
    std::string text;
    const ReadStatus read = read_input_text(path, text);
    if (read != ReadStatus::kOk) {
        std::fprintf(stderr, "gpuguide %s: %s\n", command, read_status_message(read, path, "the scenario").c_str());
        return read == ReadStatus::kTooLarge ? kExitUsage : kExitFailure;
    }
    if (const catalog::JsonText doc = catalog::parse_json_text(text); doc.error.empty() && catalog::is_gan_scenario(doc.value)) {
        const std::string name = command;
        if (name != "estimate" && name != "rank" && name != "advise") {
            std::fprintf(stderr, "gpuguide %s: %s: /model: a GAN scenario is not handled by %s yet (estimate, rank "
                                 "and advise take it)\n", command, catalog::printable(path, 200).c_str(), command);
            return kExitUsage;
        }
        catalog::ParsedGanScenario gan = catalog::parse_gan_scenario_json(doc.value, out.catalog(), path);
        if (!gan.problems.empty()) {
            print_problems(gan.problems, "");
            return kExitUsage;
        }
        out.is_gan = true;
        out.gan = std::move(gan.scenario);
        return kExitOk;
    }
    out.parsed = catalog::parse_decision_scenario(text, out.catalog(), path);
    if (!out.parsed.problems.empty()) {
        print_problems(out.parsed.problems, "");
        return kExitUsage;
    }
    return kExitOk;
}

}  // namespace gg::cli
