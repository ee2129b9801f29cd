#pragma once
// Memory for one parse: the parse-tree contexts (the generated ones derive from
// KContractContext, the grammar's contextSuperClass) and the tokens (ArenaTokenFactory) are
// bump-allocated from the arena of the parse running on this thread and given back all at
// once when it ends, instead of a malloc and a free each (about a thousand per contract).
// Internal to the parse step: included by the generated parser and by parser.cpp.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "antlr4-runtime.h"

namespace kc::parse {

class ParseArena {
 public:
  ParseArena() = default;
  ParseArena(const ParseArena&) = delete;
  ParseArena& operator=(const ParseArena&) = delete;

  // The arena of the parse running on this thread, if any.
  static ParseArena*& current() {
    static thread_local ParseArena* arena = nullptr;
    return arena;
  }

  // While a Use lives, arena-allocated objects made on this thread come from `arena`; when
  // it ends, every one of them must already be destroyed, and the memory is reused.
  class Use {
   public:
    explicit Use(ParseArena& arena) : arena_(arena), outer_(current()) { current() = &arena; }
    ~Use() {
      current() = outer_;
      arena_.clear();
    }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

   private:
    ParseArena& arena_;
    ParseArena* outer_;
  };

  // An object of `bytes` from the current arena, or from the heap when no parse is running;
  // a header before it says which, for release().
  static void* allocate(std::size_t bytes) {
    ParseArena* arena = current();
    std::size_t total = kHeader + ((bytes + kAlign - 1) & ~(kAlign - 1));
    char* raw = arena ? arena->bump(total) : static_cast<char*>(::operator new(total));
    *reinterpret_cast<std::uintptr_t*>(raw) = arena ? kFromArena : kFromHeap;
    return raw + kHeader;
  }
  static void release(void* p) {
    if (!p) return;
    char* raw = static_cast<char*>(p) - kHeader;
    if (*reinterpret_cast<std::uintptr_t*>(raw) == kFromHeap) ::operator delete(raw);
  }

 private:
  static constexpr std::size_t kAlign = alignof(std::max_align_t);
  static constexpr std::size_t kHeader = kAlign;
  static constexpr std::uintptr_t kFromHeap = 0x48454150, kFromArena = 0x4152454e;
  static constexpr std::size_t kBlock = 64 * 1024;
  static constexpr std::size_t kBlocksKept = 16;  // memory kept for the next parse: 1 MiB

  char* bump(std::size_t bytes) {
    if (block_ < blocks_.size() && used_ + bytes <= blocks_[block_].size) {
      char* p = blocks_[block_].data.get() + used_;
      used_ += bytes;
      return p;
    }
    // The next block that is large enough (a block is never smaller than kBlock).
    while (++block_ < blocks_.size() && blocks_[block_].size < bytes) {
    }
    if (block_ >= blocks_.size()) {
      std::size_t size = bytes > kBlock ? bytes : kBlock;
      blocks_.push_back(Block{std::unique_ptr<char[]>(new char[size]), size});
      block_ = blocks_.size() - 1;
    }
    used_ = bytes;
    return blocks_[block_].data.get();
  }
  void clear() {
    if (blocks_.size() > kBlocksKept) blocks_.resize(kBlocksKept);
    block_ = 0;
    used_ = 0;
  }

  struct Block {
    std::unique_ptr<char[]> data;
    std::size_t size;
  };
  std::vector<Block> blocks_;
  std::size_t block_ = 0;  // the block being filled
  std::size_t used_ = 0;   // bytes used in it
};

// A token from the arena.
class ArenaToken : public antlr4::CommonToken {
 public:
  using CommonToken::CommonToken;
  static void* operator new(std::size_t bytes) { return ParseArena::allocate(bytes); }
  static void operator delete(void* p) { ParseArena::release(p); }
};

// CommonTokenFactory (without copyText, as its DEFAULT), making ArenaTokens.
class ArenaTokenFactory : public antlr4::TokenFactory<antlr4::CommonToken> {
 public:
  static ArenaTokenFactory* instance() {
    static ArenaTokenFactory factory;
    return &factory;
  }
  std::unique_ptr<antlr4::CommonToken> create(std::pair<antlr4::TokenSource*, antlr4::CharStream*> source, size_t type,
                                              const std::string& text, size_t channel, size_t start, size_t stop,
                                              size_t line, size_t charPositionInLine) override {
    std::unique_ptr<antlr4::CommonToken> t(new ArenaToken(source, type, channel, start, stop));
    t->setLine(line);
    t->setCharPositionInLine(charPositionInLine);
    if (!text.empty()) t->setText(text);
    return t;
  }
  std::unique_ptr<antlr4::CommonToken> create(size_t type, const std::string& text) override {
    return std::unique_ptr<antlr4::CommonToken>(new ArenaToken(type, text));
  }
};

}  // namespace kc::parse

// The base of every generated parse context (grammar option contextSuperClass): a
// ParserRuleContext from the arena.
class KContractContext : public antlr4::ParserRuleContext {
 public:
  using ParserRuleContext::ParserRuleContext;
  static void* operator new(std::size_t bytes) { return kc::parse::ParseArena::allocate(bytes); }
  static void operator delete(void* p) { kc::parse::ParseArena::release(p); }
};
