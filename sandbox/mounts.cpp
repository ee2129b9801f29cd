// The cell's view of the file system (sandbox/cell_internal.h).
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "sandbox/cell_internal.h"

namespace kc::sandbox {

namespace fs = std::filesystem;

namespace {

// mount_setattr(2) through syscall(): older C libraries have no wrapper.
bool setAttributes(const std::string& path, unsigned flags, uint64_t set, uint64_t clear) {
  struct {
    uint64_t attr_set, attr_clr, propagation, userns_fd;
  } attr{set, clear, 0, 0};
  return syscall(SYS_mount_setattr, AT_FDCWD, path.c_str(), flags, &attr, sizeof attr) == 0;
}
constexpr uint64_t kReadOnly = 0x1;   // MOUNT_ATTR_RDONLY
constexpr uint64_t kNoSuid = 0x2;     // MOUNT_ATTR_NOSUID
constexpr unsigned kRecursive = 0x8000;  // AT_RECURSIVE

bool touch(const std::string& path) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  close(fd);
  return true;
}

bool bindMount(const std::string& from, const std::string& to) {
  return mount(from.c_str(), to.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0;
}

// The nodes of /dev a kernel may use; a compiler gets /dev/null alone.
std::vector<std::string> deviceNodes(const CellSpec& spec) {
  if (spec.compiler) return {"null"};
  std::vector<std::string> nodes = {"null", "zero", "full", "random", "urandom"};
  if (spec.gpuDevices) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/dev", ec)) {
      std::string name = e.path().filename().string();
      if (name.rfind("nvidia", 0) == 0) nodes.push_back(name);  // nvidia0.., nvidiactl, nvidia-uvm(-tools), nvidia-caps/
    }
  }
  return nodes;
}

bool buildDev(const CellSpec& spec, const std::string& folder) {
  std::string dev = folder + "/dev";
  if (mount("tmpfs", dev.c_str(), "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=755,size=1m") != 0) return false;
  for (const std::string& node : deviceNodes(spec)) {
    std::string from = "/dev/" + node, to = dev + "/" + node;
    std::error_code ec;
    if (fs::is_directory(from, ec)) {
      fs::create_directories(to, ec);
    } else if (!touch(to)) {
      continue;
    }
    bindMount(from, to);
  }
  if (!spec.compiler) {
    fs::create_directories(dev + "/shm");
    mount("tmpfs", (dev + "/shm").c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
    for (auto [name, target] : {std::pair{"fd", "/proc/self/fd"}, {"stdin", "/proc/self/fd/0"},
                                {"stdout", "/proc/self/fd/1"}, {"stderr", "/proc/self/fd/2"}})
      (void)!symlink(target, (dev + "/" + name).c_str());
  }
  return mount(dev.c_str(), "/dev", nullptr, MS_MOVE, nullptr) == 0;
}

// Account files: stand-ins that name root and nobody; the shadow files: empty.
void hideAccounts(const std::string& folder) {
  std::string etc = folder + "/etc";
  struct Standin {
    const char* path;
    const char* text;
  };
  for (const Standin& s : {Standin{"/etc/passwd", "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"},
                           Standin{"/etc/group", "root:x:0:\nnogroup:x:65534:\n"}}) {
    std::error_code ec;
    if (!fs::exists(s.path, ec)) continue;
    std::string copy = etc + "/" + fs::path(s.path).filename().string();
    int fd = open(copy.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) continue;
    (void)!write(fd, s.text, std::strlen(s.text));
    close(fd);
    bindMount(copy, s.path);
  }
  for (const char* secret : {"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-"}) {
    std::error_code ec;
    if (fs::exists(secret, ec)) bindMount("/dev/null", secret);
  }
  for (const char* secret : {"/etc/ssh", "/etc/ssl/private", "/root/.ssh"}) {
    std::error_code ec;
    if (fs::is_directory(secret, ec)) mount("tmpfs", secret, "tmpfs", MS_RDONLY, "size=4k,mode=700");
  }
}

// /proc cannot stay read-only: the CUDA driver writes its own process's entries there (a
// read-only /proc fails cudaGetDeviceCount with error 304). It is opened again, with the
// entries that reach the machine kept read-only or masked, as container runtimes do.
bool reopenProc() {
  if (!setAttributes("/proc", 0, 0, kReadOnly)) return false;
  bool ok = true;
  for (const char* p : {"/proc/sys", "/proc/sysrq-trigger", "/proc/bus", "/proc/fs", "/proc/irq"}) {
    std::error_code ec;
    if (!fs::exists(p, ec)) continue;
    ok = ok && bindMount(p, p) && setAttributes(p, 0, kReadOnly | kNoSuid, 0);
  }
  for (const char* p : {"/proc/kcore", "/proc/keys", "/proc/timer_list", "/proc/sched_debug"}) {
    std::error_code ec;
    if (fs::exists(p, ec)) ok = ok && bindMount("/dev/null", p);
  }
  return ok;
}

}  // namespace

MountView buildMountView(const CellSpec& spec, const std::string& folder, bool ownPidNamespace) {
  MountView view;
  // Nothing done here reaches the checker's namespace.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return view;
  bool devOk = buildDev(spec, folder);
  if (ownPidNamespace)
    view.freshProc = mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0;
  hideAccounts(folder);
  // Writable places first get a mount of their own, so the read-only pass below reaches them
  // as separate mounts that can be opened again.
  std::vector<std::string> writable = {folder + "/scratch"};
  writable.insert(writable.end(), spec.writable.begin(), spec.writable.end());
  if (!spec.jitCache.empty()) writable.push_back(spec.jitCache);
  // Only a folder that got its own mount is opened again: clearing read-only on a plain
  // folder would clear it on the mount that holds it.
  std::vector<std::string> ownMounts;
  for (const std::string& w : writable)
    if (bindMount(w, w)) ownMounts.push_back(w);
  view.readOnlyRoot = devOk && setAttributes("/", kRecursive, kReadOnly | kNoSuid, 0);
  for (const std::string& w : ownMounts) view.readOnlyRoot = view.readOnlyRoot && setAttributes(w, 0, 0, kReadOnly);
  if (view.readOnlyRoot) view.readOnlyRoot = reopenProc();
  if (!spec.compiler && !spec.sharedMemory) setAttributes("/dev/shm", 0, 0, kReadOnly);
  return view;
}

}  // namespace kc::sandbox
