// warpscope-cli's commands, one function each, given the arguments after the command's name;
// each returns the exit status (docs/cli.md). main.cpp dispatches to them.
#pragma once

#include <string>
#include <vector>

namespace warpscope::cli {

int runAnalyze(const std::vector<std::string>& args);       // analyze_command.cpp
int runPresets(const std::vector<std::string>& args);       // predict_command.cpp
int runPredict(const std::vector<std::string>& args);       // predict_command.cpp
int runPredictKernel(const std::vector<std::string>& args); // predict_kernel_command.cpp
int runKernelPresets(const std::vector<std::string>& args); // predict_kernel_command.cpp
int runAnalyzeKernel(const std::vector<std::string>& args); // analyze_kernel_command.cpp

} // namespace warpscope::cli
