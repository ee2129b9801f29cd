#pragma once
// Runs `fn` on a thread with a 64 MiB stack and waits for it. The compiler accepts
// expressions 4,096 operators deep (compiler/parse/transformer.h), which its recursive passes
// walk well within a release build's 8 MiB stack; ASan's frames are about four times larger,
// so the fuzz targets give each input the same margin with a larger stack.
#include <pthread.h>

#include <functional>

namespace kc::fuzz {

inline void onBigStack(const std::function<void()>& fn) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t{64} << 20);
  pthread_t thread;
  auto trampoline = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  if (pthread_create(&thread, &attr, trampoline, const_cast<std::function<void()>*>(&fn)) == 0)
    pthread_join(thread, nullptr);
  else
    fn();
  pthread_attr_destroy(&attr);
}

}  // namespace kc::fuzz
