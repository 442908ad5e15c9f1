#pragma once
// The JSON workload file format for user-defined tasks; resources/workloads/schema.json
// documents it and resources/workloads/example.json shows every op. Errors are one line
// naming the file, the task and the problem.
#include <string>

#include "util/result.h"
#include "workload/workload.h"

namespace schedscope::workload {

Result<Workload> parseWorkloadJson(const std::string& text, const std::string& origin, int cpuCount);
Result<Workload> loadWorkloadFile(const std::string& path, int cpuCount);

}  // namespace schedscope::workload
