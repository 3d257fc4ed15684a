// The `weft` command's help: one table of commands, options and examples from which both the
// overview (`weft --help`) and each command's page (`weft bench --help`, `weft help bench`)
// are printed, so the two never disagree.
//
//   std::cout << weft::tool::overview_help();
//   if (auto page = weft::tool::command_help("bench")) std::cout << *page;
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace weft::tool {

/// `weft --help`: every command on one line with an example.
std::string overview_help();

/// One command's page: its synopsis, one line per option, examples; nullopt for an unknown
/// command. `bench` also lists the suites registered in this program.
std::optional<std::string> command_help(std::string_view command);

/// Whether a command's arguments ask for its help (-h or --help anywhere among them).
bool asks_for_help(const std::vector<std::string>& args);

}  // namespace weft::tool
