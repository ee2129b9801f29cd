#pragma once
// Items run over several lanes (one per GPU of `check --devices`) and handed on in order.
// Item i always runs on lane i % lanes, so which lane ran which item is the same in every
// run; `emit` sees the items one by one in item order on the calling thread, whatever order
// they finished in, so what a caller reports is the same as with one lane.
#include <cstddef>
#include <functional>

namespace kc::run {

// Runs `work(item, lane)` for items 0..count-1 and calls `emit(item)` on the calling thread
// in item order, each once its work is done; `before(item)` (optional) just before waiting
// for an item (a progress bar). `emit` returns false to stop: items after it that have not
// started are not run, and those that have are waited for and not emitted. With one lane
// everything runs on the calling thread, each item emitted as soon as it ran. An exception
// thrown by `work` stops the lanes and is rethrown here when its item's turn comes.
void runInLanes(size_t count, size_t lanes, const std::function<void(size_t item, size_t lane)>& work,
                const std::function<bool(size_t item)>& emit, const std::function<void(size_t item)>& before = {});

}  // namespace kc::run
