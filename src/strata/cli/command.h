// The command-line tool's frame: each subcommand registers itself on the CLI11 app and
// returns a process exit code. Errors print one clear line to stderr and exit non-zero.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

#include "strata/util/status.h"

namespace strata::cli {

// A subcommand's action, run after parsing; a non-OK Status becomes "strata: <message>".
using CommandAction = std::function<Status()>;

// Each subcommand file defines one of these; main.cc calls them all.
void RegisterSchemaCommand(CLI::App& app, CommandAction& action);
void RegisterMetaCommand(CLI::App& app, CommandAction& action);
void RegisterCatCommand(CLI::App& app, CommandAction& action);
void RegisterScanCommand(CLI::App& app, CommandAction& action);
void RegisterPagesCommand(CLI::App& app, CommandAction& action);
void RegisterConvertCommand(CLI::App& app, CommandAction& action);

}  // namespace strata::cli
