#pragma once
// The HTML report's style sheet and script, inlined into every page (no network, no files
// beside it). The script filters the verdict table by the <select class="filter"> controls;
// a page opened as REPORT.html#verdict=FAIL&dtype=f32 starts filtered so (and the address
// follows the controls), which is also how the browser test checks the filter.
#include <string_view>

namespace kc::report {

inline constexpr std::string_view kHtmlStyle = R"CSS(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em 2em; color: #212121; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; }
h3 { margin-top: 1.4em; } h4 { margin: 1em 0 0.3em; color: #555; }
.meta, .note { color: #666; } .note { font-size: 0.9em; }
table { border-collapse: collapse; margin: 0.4em 0; }
th, td { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
th { background: #f5f5f5; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.verdict { font-weight: 600; }
.v-PASS { color: #2e7d32; } .v-FAIL { color: #c62828; } .v-CRASH { color: #6a1b9a; } .v-TIMEOUT { color: #ad1457; }
.v-ERROR { color: #4e342e; } .v-MISTRUSTED { color: #ef6c00; } .v-SKIPPED, .v-UNKNOWN { color: #757575; }
.filters label { margin-right: 1.2em; } .filters select { margin-left: 0.3em; }
pre { background: #f7f7f7; padding: 0.5em; overflow-x: auto; white-space: pre-wrap; }
details.failure { border-left: 4px solid #c62828; padding: 0.2em 0.8em; margin: 0.6em 0; }
details.failure > summary { cursor: pointer; font-weight: 600; }
.legend span { display: inline-block; margin-right: 1em; } .legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
svg { display: block; margin: 0.3em 0; } svg text { font: 11px system-ui, sans-serif; fill: #444; }
svg .grid { stroke: #eee; } svg .tol { stroke: #c62828; stroke-dasharray: 4 3; } svg .axis { fill: #666; }
)CSS";

inline constexpr std::string_view kHtmlScript = R"JS(
(function () {
  const filters = Array.from(document.querySelectorAll('select.filter'));
  const rows = Array.from(document.querySelectorAll('#cases tbody tr'));
  const shown = document.getElementById('shown');
  function apply() {
    let n = 0;
    for (const row of rows) {
      const ok = filters.every(f => !f.value || row.dataset[f.dataset.key].split('|').includes(f.value));
      row.hidden = !ok;
      if (ok) n++;
    }
    shown.textContent = n + ' of ' + rows.length + ' cases shown';
  }
  function changed() {
    apply();
    const hash = filters.filter(f => f.value).map(f => f.dataset.key + '=' + encodeURIComponent(f.value)).join('&');
    try { history.replaceState(null, '', hash ? '#' + hash : location.pathname); } catch (e) {}
  }
  for (const part of location.hash.slice(1).split('&')) {
    const at = part.indexOf('=');
    const f = filters.find(f => f.dataset.key === part.slice(0, at));
    if (at > 0 && f) f.value = decodeURIComponent(part.slice(at + 1));
  }
  for (const f of filters) f.addEventListener('change', changed);
  apply();
})();
)JS";

}  // namespace kc::report
