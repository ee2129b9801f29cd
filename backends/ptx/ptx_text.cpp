#include "backends/ptx/ptx_text.h"

#include <cctype>
#include <sstream>

namespace kc::ptx {

std::vector<Statement> statements(const std::string& src) {
  std::vector<Statement> out;
  std::string cur;
  int line = 1, startLine = 1;
  bool inString = false;
  auto flush = [&](char kind) {
    size_t b = cur.find_first_not_of(" \t\r\n");
    size_t e = cur.find_last_not_of(" \t\r\n");
    std::string t = b == std::string::npos ? "" : cur.substr(b, e - b + 1);
    if (!t.empty() || kind == '{' || kind == '}') out.push_back({t, startLine, kind});
    cur.clear();
  };
  int depthBraces = 0;  // braces inside a statement: vector operands {%r1, %r2}, initialisers
  for (size_t i = 0; i < src.size(); ++i) {
    char c = src[i];
    if (!inString && c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
      while (i < src.size() && src[i] != '\n') ++i;
      --i;
      continue;
    }
    if (!inString && c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
      size_t end = src.find("*/", i + 2);
      for (size_t k = i; k < (end == std::string::npos ? src.size() : end); ++k)
        if (src[k] == '\n') ++line;
      i = end == std::string::npos ? src.size() : end + 1;
      continue;
    }
    if (c == '"') inString = !inString;
    bool blank = cur.find_first_not_of(" \t\r\n") == std::string::npos;
    if (blank && !inString) startLine = line;
    if (c == '\n') {
      ++line;
      // Directives without a ';' end at their line: .version, .target, .maxntid 256, 1, 1 ...
      if (!blank && depthBraces == 0) {
        std::string head = cur.substr(cur.find_first_not_of(" \t\r\n"));
        for (const char* d : {".version", ".target", ".address_size", ".maxntid", ".reqntid", ".minnctapersm",
                              ".maxnreg", ".file", ".loc", ".noreturn", ".maxclusterrank"})
          if (head.rfind(d, 0) == 0) {
            flush(';');
            break;
          }
      }
    }
    if (inString) {
      cur += c;
      continue;
    }
    // Performance directives (.maxntid 256, 1, 1) end at the line, before the body's '{'.
    if (c == '{' && !blank && depthBraces == 0 && cur[cur.find_first_not_of(" \t\r\n")] == '.' &&
        cur.find('=') == std::string::npos) {
      flush(';');
      blank = true;
    }
    if ((c == '{' || c == '}') && blank && depthBraces == 0) {
      cur.clear();
      out.push_back({"", line, c});
      continue;
    }
    if (c == '{') ++depthBraces;
    if (c == '}') --depthBraces;
    if (c == ';' && depthBraces == 0) {
      flush(';');
      continue;
    }
    if (c == ':' && depthBraces == 0) {  // a label: one identifier before it
      std::string t = cur;
      size_t b = t.find_first_not_of(" \t\r\n");
      if (b != std::string::npos) {
        std::string name = t.substr(b);
        bool ident = !name.empty();
        for (char ch : name)
          if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$')) ident = false;
        if (ident && name[0] != '.') {
          cur = name;
          flush(':');
          continue;
        }
      }
    }
    // A kernel's parameter list and header: "(" ... ")" belong to the statement.
    cur += c;
    // `.entry NAME( ... )` is followed by `{` without a ';': cut the header there.
    if (c == ')' && depthBraces == 0 && cur.find(".entry") != std::string::npos) {
      size_t open = 0, close = 0;
      for (char ch : cur) open += ch == '(', close += ch == ')';
      if (open == close) flush(';');
    } else if (c == ')' && depthBraces == 0 && cur.find(".func") != std::string::npos) {
      size_t open = 0, close = 0;
      for (char ch : cur) open += ch == '(', close += ch == ')';
      if (open == close && open >= 1) flush(';');
    }
  }
  flush(';');
  return out;
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> w;
  std::stringstream ss(s);
  for (std::string x; ss >> x;) w.push_back(x);
  return w;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  size_t e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Splits at top-level commas (not inside [] or {}).
std::vector<std::string> splitOperands(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

}  // namespace kc::ptx
