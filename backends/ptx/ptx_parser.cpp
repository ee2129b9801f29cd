// The PTX parser: over the statements of ptx_text.h, directives declaring kernels, parameters, registers and
// variables, and instructions decoded (ptx_opcode.cpp) with their operands. Labels are
// resolved to instruction indices once a function's body is read.
#include "backends/ptx/ptx_parser.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

#include "backends/ptx/ptx_text.h"

namespace kc::ptx {

namespace {

class Parser {
 public:
  Parser(const std::string& path) { m_.path = path; }

  Module run(const std::string& text) {
    std::vector<Statement> st = statements(text);
    for (size_t i = 0; i < st.size(); ++i) {
      const Statement& s = st[i];
      if (s.kind == '{') {
        if (!fn_) fail(s.line, "a '{' outside a function");
        ++depth_;
        continue;
      }
      if (s.kind == '}') {
        if (--depth_ == 0) endFunction();
        continue;
      }
      if (s.kind == ':') {
        if (!fn_) fail(s.line, "a label outside a function: " + s.text);
        labels_[s.text] = static_cast<int>(fn_->code.size());
        continue;
      }
      statement(s);
    }
    if (fn_) fail(line_, "the function " + fn_->name + " has no closing '}'");
    return std::move(m_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) {
    throw ParseError(m_.path + ":" + std::to_string(line) + ": " + what);
  }

  void statement(const Statement& s) {
    line_ = s.line;
    const std::string& t = s.text;
    if (t[0] == '.') return directive(s);
    if (!fn_ || depth_ == 0) fail(s.line, "an instruction outside a function: " + t);
    instruction(s);
  }

  // .version, .target, .address_size, .entry/.func headers, variables, registers, pragmas.
  void directive(const Statement& s) {
    std::vector<std::string> w = words(s.text);
    const std::string& d = w[0];
    if (d == ".version" || d == ".target" || d == ".address_size" || d == ".pragma" || d == ".maxntid" ||
        d == ".reqntid" || d == ".minnctapersm" || d == ".maxnreg" || d == ".file" || d == ".loc" ||
        d == ".section" || d == ".maxclusterrank" || d == ".noreturn")
      return;
    if (s.text.find(".entry") != std::string::npos || s.text.find(".func") != std::string::npos) return header(s);
    if (d == ".reg") return registers(s);
    if (d == ".extern" && s.text.find(".shared") != std::string::npos) return variable(s, s.text.substr(7));
    if (d == ".visible" || d == ".weak" || d == ".global" || d == ".const" || d == ".shared" || d == ".local")
      return variable(s, d == ".visible" || d == ".weak" ? s.text.substr(d.size()) : s.text);
    fail(s.line, "unsupported directive '" + d + "'");
  }

  void header(const Statement& s) {
    if (fn_) fail(s.line, "a function inside a function");
    size_t open = s.text.find('(');
    std::string head = trim(s.text.substr(0, open));
    std::vector<std::string> w = words(head);
    bool entry = s.text.find(".entry") != std::string::npos;
    if (!entry) fail(s.line, "device functions (.func) are outside the subset: inline them (nvcc does at -O2)");
    Function f;
    f.name = w.back();
    f.entry = true;
    f.line = s.line;
    m_.functions.push_back(f);
    fn_ = &m_.functions.back();
    fnIndex_ = static_cast<int>(m_.functions.size()) - 1;
    regs_.clear();
    labels_.clear();
    pendingLabels_.clear();
    int64_t offset = 0;
    if (open != std::string::npos) {
      size_t close = s.text.rfind(')');
      for (const std::string& p : splitOperands(s.text.substr(open + 1, close - open - 1))) {
        Symbol sym = declaration(s.line, p, Space::Param);
        offset = (offset + sym.align - 1) / sym.align * sym.align;
        sym.offset = offset;
        offset += sym.size;
        fn_->params.push_back(addSymbol(sym));
      }
    }
    fn_->paramBytes = offset;
  }

  // ".param .align 8 .b8 NAME[16]", ".shared .align 4 .b8 NAME[1024]", ".global .u32 NAME = 5".
  Symbol declaration(int line, const std::string& text, Space space) {
    std::string decl = text, init;
    if (size_t eq = text.find('='); eq != std::string::npos) {
      decl = text.substr(0, eq);
      init = trim(text.substr(eq + 1));
    }
    Symbol sym;
    sym.space = space;
    Type type = Type::None;
    for (const std::string& w : words(decl)) {
      if (w == ".align") continue;
      if (w[0] == '.') {
        if (Type t = typeFromName(w.substr(1)); t != Type::None) type = t;
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(w[0]))) {
        sym.align = std::stoi(w);
        continue;
      }
      sym.name = w;
    }
    if (type == Type::None || sym.name.empty()) fail(line, "cannot read the declaration '" + trim(text) + "'");
    int64_t elem = std::max(1, typeBits(type) / 8), count = 1;
    if (size_t b = sym.name.find('['); b != std::string::npos) {
      std::string n = sym.name.substr(b + 1, sym.name.find(']') - b - 1);
      count = n.empty() ? 0 : std::stoll(n);
      sym.name = sym.name.substr(0, b);
    }
    sym.size = elem * count;
    sym.align = std::max<int>(sym.align, static_cast<int>(elem));
    if (!init.empty()) {
      std::string list = init;
      list.erase(std::remove(list.begin(), list.end(), '{'), list.end());
      list.erase(std::remove(list.begin(), list.end(), '}'), list.end());
      for (const std::string& v : splitOperands(list)) {
        Operand o = operand(line, v);
        uint64_t bits = static_cast<uint64_t>(o.imm);
        if (o.kind == Operand::Kind::FImm) {
          if (elem == 4) {
            float f = static_cast<float>(o.fimm);
            uint32_t u;
            std::memcpy(&u, &f, 4);
            bits = u;
          } else {
            std::memcpy(&bits, &o.fimm, 8);
          }
        } else if (o.kind != Operand::Kind::Imm) {
          fail(line, "unsupported initialiser '" + v + "'");
        }
        for (int64_t k = 0; k < elem; ++k) sym.init.push_back(static_cast<uint8_t>(bits >> (8 * k)));
      }
    }
    return sym;
  }

  int addSymbol(Symbol sym) {
    sym.function = fn_ ? fnIndex_ : -1;
    for (size_t i = 0; i < m_.symbols.size(); ++i)  // a name resolves to the innermost declaration
      if (m_.symbols[i].name == sym.name && m_.symbols[i].function == sym.function)
        fail(line_, "'" + sym.name + "' is declared twice");
    m_.symbols.push_back(sym);
    return static_cast<int>(m_.symbols.size()) - 1;
  }

  void variable(const Statement& s, const std::string& text) {
    std::vector<std::string> w = words(text);
    Space space = w[0] == ".shared" ? Space::Shared : w[0] == ".local" ? Space::Local : w[0] == ".const" ? Space::Const
                                                                                                          : Space::Global;
    if (w[0] != ".shared" && w[0] != ".local" && w[0] != ".const" && w[0] != ".global")
      fail(s.line, "unsupported declaration '" + s.text + "'");
    Symbol sym = declaration(s.line, text.substr(text.find(w[0]) + w[0].size()), space);
    if (space == Space::Shared || space == Space::Local) {
      if (!fn_ && space == Space::Local) fail(s.line, "module-scope .local is outside the subset");
      if (fn_) {
        int64_t& top = space == Space::Shared ? fn_->sharedBytes : fn_->localBytes;
        top = (top + sym.align - 1) / sym.align * sym.align;
        sym.offset = top;
        top += sym.size;
      } else {
        sym.offset = -1;  // module-scope shared: placed per kernel when the kernel ends (endFunction)
      }
    }
    addSymbol(sym);
  }

  void registers(const Statement& s) {
    // ".reg .b64 %rd<61>" or ".reg .f32 %f1, %f2"
    std::vector<std::string> w = words(s.text);
    if (w.size() < 3) fail(s.line, "cannot read '" + s.text + "'");
    std::string rest;
    for (size_t i = 2; i < w.size(); ++i) rest += w[i];
    for (const std::string& r : splitOperands(rest)) {
      size_t lt = r.find('<');
      if (lt == std::string::npos) {
        reg(r);
        continue;
      }
      std::string base = r.substr(0, lt);
      int n = std::stoi(r.substr(lt + 1));
      for (int i = 0; i < n; ++i) reg(base + std::to_string(i));
    }
  }

  int reg(const std::string& name) {
    auto it = regs_.find(name);
    if (it != regs_.end()) return it->second;
    int id = fn_->registers++;
    fn_->registerNames.push_back(name);
    regs_[name] = id;
    return id;
  }

  int findSymbol(const std::string& name) const {
    int found = -1;
    for (size_t i = 0; i < m_.symbols.size(); ++i)
      if (m_.symbols[i].name == name && (m_.symbols[i].function == fnIndex_ || m_.symbols[i].function == -1)) {
        if (found < 0 || m_.symbols[i].function == fnIndex_) found = static_cast<int>(i);
      }
    return found;
  }

  Operand operand(int line, const std::string& raw) {
    Operand o;
    std::string t = trim(raw);
    if (t.empty()) fail(line, "an empty operand");
    if (t == "_") {
      o.kind = Operand::Kind::Sink;
      return o;
    }
    if (t[0] == '!') {
      o = operand(line, t.substr(1));
      o.negate = true;
      return o;
    }
    if (t[0] == '[') {
      std::string in = trim(t.substr(1, t.find(']') - 1));
      o.kind = Operand::Kind::Addr;
      size_t plus = in.find('+', 1);
      std::string base = trim(in.substr(0, plus));
      if (plus != std::string::npos) o.imm = std::stoll(trim(in.substr(plus + 1)), nullptr, 0);
      if (base[0] == '%') {
        o.reg = reg(base);
      } else if (std::isdigit(static_cast<unsigned char>(base[0])) || base[0] == '-') {
        o.imm += std::stoll(base, nullptr, 0);
      } else {
        o.symbol = findSymbol(base);
        if (o.symbol < 0) fail(line, "unknown variable '" + base + "'");
      }
      return o;
    }
    if (t[0] == '{') {
      o.kind = Operand::Kind::Vec;
      for (const std::string& e : splitOperands(t.substr(1, t.rfind('}') - 1))) o.vec.push_back(e == "_" ? -1 : reg(e));
      return o;
    }
    if (t[0] == '%') {
      static const std::pair<const char*, Special> specials[] = {
          {"%tid.x", Special::TidX},       {"%tid.y", Special::TidY},       {"%tid.z", Special::TidZ},
          {"%ntid.x", Special::NtidX},     {"%ntid.y", Special::NtidY},     {"%ntid.z", Special::NtidZ},
          {"%ctaid.x", Special::CtaidX},   {"%ctaid.y", Special::CtaidY},   {"%ctaid.z", Special::CtaidZ},
          {"%nctaid.x", Special::NctaidX}, {"%nctaid.y", Special::NctaidY}, {"%nctaid.z", Special::NctaidZ},
          {"%laneid", Special::Laneid},    {"%warpid", Special::Warpid},    {"%nwarpid", Special::Nwarpid},
          {"%clock", Special::Clock},      {"%clock64", Special::Clock64},  {"%globaltimer", Special::Globaltimer},
          {"%smid", Special::Smid},        {"%lanemask_lt", Special::Lanemask}};
      for (const auto& [name, sp] : specials)
        if (t == name) {
          o.kind = Operand::Kind::Special;
          o.special = sp;
          return o;
        }
      if (t.find('.') != std::string::npos) fail(line, "unsupported special register '" + t + "'");
      o.kind = Operand::Kind::Reg;
      o.reg = reg(t);
      return o;
    }
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'f' || t[1] == 'F' || t[1] == 'd' || t[1] == 'D')) {
      o.kind = Operand::Kind::FImm;
      uint64_t bits = std::stoull(t.substr(2), nullptr, 16);
      if (t[1] == 'f' || t[1] == 'F') {
        float f;
        uint32_t u = static_cast<uint32_t>(bits);
        std::memcpy(&f, &u, 4);
        o.fimm = f;
      } else {
        std::memcpy(&o.fimm, &bits, 8);
        o.fimmIsDouble = true;
      }
      o.imm = static_cast<int64_t>(bits);
      return o;
    }
    if (std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '-') {
      if (t.find('.') != std::string::npos || t.find('e') != std::string::npos) {
        o.kind = Operand::Kind::FImm;
        o.fimm = std::stod(t);
        o.fimmIsDouble = true;
        return o;
      }
      o.kind = Operand::Kind::Imm;
      std::string n = t;
      if (!n.empty() && (n.back() == 'U' || n.back() == 'u')) n.pop_back();
      if (n[0] == '-') o.imm = std::stoll(n, nullptr, 0);
      else o.imm = static_cast<int64_t>(std::stoull(n, nullptr, 0));
      return o;
    }
    // A label (a branch target) or a variable's address.
    if (int sym = findSymbol(t); sym >= 0) {
      o.kind = Operand::Kind::Symbol;
      o.symbol = sym;
      return o;
    }
    o.kind = Operand::Kind::Label;
    pendingLabels_.push_back({static_cast<int>(fn_->code.size()), t});
    return o;
  }

  void instruction(const Statement& s) {
    std::string t = s.text;
    Instr in;
    in.line = s.line;
    if (t[0] == '@') {
      size_t sp = t.find_first_of(" \t");
      std::string g = t.substr(1, sp - 1);
      in.guardNegated = g[0] == '!';
      in.guard = reg(in.guardNegated ? g.substr(1) : g);
      t = trim(t.substr(sp));
    }
    size_t sp = t.find_first_of(" \t");
    std::string opcode = t.substr(0, sp);
    std::string rest = sp == std::string::npos ? "" : trim(t.substr(sp));
    if (!decodeOpcode(opcode, in)) fail(s.line, "unknown instruction '" + opcode + "' (outside the PTX subset of docs/ptx.md)");
    if (in.op == Op::Membar) in.op = Op::Nop;
    for (const std::string& part : splitOperands(rest)) {
      // "%p1|%p2" (setp, shfl): two destinations.
      if (size_t bar = part.find('|'); bar != std::string::npos && part[0] != '[') {
        in.ops.push_back(operand(s.line, part.substr(0, bar)));
        in.ops.push_back(operand(s.line, part.substr(bar + 1)));
        in.ops.back().negate = in.ops.back().negate;  // kept
        in.ops[in.ops.size() - 2].imm = 1;            // marks "a second destination follows"
        continue;
      }
      in.ops.push_back(operand(s.line, part));
    }
    fn_->code.push_back(std::move(in));
  }

  void endFunction() {
    for (const auto& [index, name] : pendingLabels_) {
      auto it = labels_.find(name);
      if (it == labels_.end()) fail(fn_->code[static_cast<size_t>(index)].line, "unknown label or variable '" + name + "'");
      for (Operand& o : fn_->code[static_cast<size_t>(index)].ops)
        if (o.kind == Operand::Kind::Label && o.imm == 0 && o.reg == -1) {
          o.imm = it->second;
          o.reg = -2;  // resolved
          break;
        }
    }
    // Module-scope shared variables: every kernel gets them after its own.
    for (Symbol& sym : m_.symbols)
      if (sym.space == Space::Shared && sym.function == -1) {
        fn_->sharedBytes = (fn_->sharedBytes + sym.align - 1) / sym.align * sym.align;
        sym.offset = fn_->sharedBytes;  // the same offset in every kernel only when it is the only one; see docs/ptx.md
        fn_->sharedBytes += sym.size;
      }
    m_.functionIndex[fn_->name] = fnIndex_;
    fn_ = nullptr;
    fnIndex_ = -1;
  }

  Module m_;
  Function* fn_ = nullptr;
  int fnIndex_ = -1;
  int depth_ = 0;
  int line_ = 0;
  std::map<std::string, int> regs_, labels_;
  std::vector<std::pair<int, std::string>> pendingLabels_;
};

}  // namespace

Module parseModule(const std::string& text, const std::string& path) { return Parser(path).run(text); }

Module parseFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ParseError("cannot read the PTX file '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return parseModule(ss.str(), path);
}

}  // namespace kc::ptx
