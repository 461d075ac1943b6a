// agents.*.sandbox (see sandbox_settings.h). OpenClaw's keys, validated against what a
// bubblewrap sandbox can honour: values it cannot honour are errors, keys that only steer a
// container engine are warnings, so an operator never believes in an isolation that is not
// there.

#include "config/sandbox_settings.h"

#include <arpa/inet.h>

#include <cmath>

#include "base/strings.h"
#include "config/exec_layer.h"
#include "config/exec_settings.h"

namespace clawexec::config {
namespace {

// An address inet_pton accepts (dotted-quad IPv4, or IPv6). A pure libc parser, no I/O.
bool is_ip_address(std::string_view s) {
  if (s.empty() || s.size() > 45) return false;
  std::string text(s);
  unsigned char out[16];
  return ::inet_pton(AF_INET, text.c_str(), out) == 1 || ::inet_pton(AF_INET6, text.c_str(), out) == 1;
}

// A host name for /etc/hosts: letters, digits, '-', '.' and '_', not starting with '-' or '.'.
bool is_host_name(std::string_view s) {
  if (s.empty() || s.size() > 253 || s.front() == '-' || s.front() == '.') return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_') return false;
  }
  return true;
}

namespace json = boost::json;
using detail::child_object;
using detail::child_path;
using detail::describe_value;
using detail::Diagnostics;

// Keys that configure an image or a container engine: nothing to map them to.
constexpr std::string_view kEngineOnlyDockerKeys[] = {"image",  "containerPrefix", "gpus",   "seccompProfile",
                                                      "apparmorProfile", "labels", "platform", "runtime",
                                                      "dangerouslyAllowContainerNamespaceJoin"};
constexpr std::string_view kEngineOnlySandboxKeys[] = {"browser", "ssh"};

bool absolute(std::string_view p) { return !p.empty() && p[0] == '/'; }

std::string strip_trailing_slashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

bool under(const std::string& path, const std::string& dir) {
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/') ||
         dir == "/";
}

struct Reader {
  Diagnostics& d;
  std::optional<std::string> string(const json::value& v, const std::string& key) {
    if (v.is_string()) return std::string(v.get_string());
    d.errors.push_back(key + ": expected a string, got " + describe_value(v));
    return std::nullopt;
  }
  std::optional<bool> boolean(const json::value& v, const std::string& key) {
    if (v.is_bool()) return v.get_bool();
    d.errors.push_back(key + ": expected true or false, got " + describe_value(v));
    return std::nullopt;
  }
  std::optional<double> number(const json::value& v, const std::string& key) {
    if (v.is_int64()) return static_cast<double>(v.get_int64());
    if (v.is_uint64()) return static_cast<double>(v.get_uint64());
    if (v.is_double()) return v.get_double();
    d.errors.push_back(key + ": expected a number, got " + describe_value(v));
    return std::nullopt;
  }
  std::optional<int64_t> positive_integer(const json::value& v, const std::string& key) {
    std::optional<double> n = number(v, key);
    if (!n) return std::nullopt;
    if (*n < 1 || std::floor(*n) != *n || *n > 9e15) {
      d.errors.push_back(key + ": expected a positive integer, got " + describe_value(v));
      return std::nullopt;
    }
    return static_cast<int64_t>(*n);
  }
  std::optional<std::vector<std::string>> strings(const json::value& v, const std::string& key) {
    if (!v.is_array()) {
      d.errors.push_back(key + ": expected an array of strings, got " + describe_value(v));
      return std::nullopt;
    }
    std::vector<std::string> out;
    for (size_t i = 0; i < v.get_array().size(); ++i) {
      const json::value& item = v.get_array()[i];
      if (!item.is_string()) {
        d.errors.push_back(key + "[" + std::to_string(i) + "]: expected a string, got " + describe_value(item));
        return std::nullopt;
      }
      out.emplace_back(item.get_string());
    }
    return out;
  }
  template <typename E>
  std::optional<E> choice(const json::value& v, const std::string& key,
                          std::initializer_list<std::pair<std::string_view, E>> options) {
    std::string allowed;
    for (const auto& [name, value] : options) allowed += (allowed.empty() ? "" : ", ") + std::string(name);
    if (v.is_string()) {
      for (const auto& [name, value] : options) {
        if (v.get_string() == name) return value;
      }
    }
    d.errors.push_back(key + ": expected one of " + allowed + ", got " + describe_value(v));
    return std::nullopt;
  }
};

void read_docker(const json::object& docker, const std::string& path, SandboxSettings& s, Diagnostics& d,
                 std::vector<SandboxBind>& binds,
                 bool& allow_reserved) {
  Reader r{d};
  for (const auto& kv : docker) {
    std::string key = child_path(path, kv.key());
    std::string_view name = kv.key();
    const json::value& v = kv.value();
    bool engine_only = false;
    for (std::string_view k : kEngineOnlyDockerKeys) engine_only = engine_only || name == k;
    if (engine_only) {
      if ((name == "seccompProfile" || name == "apparmorProfile") && v.is_string() && v.get_string() == "unconfined") {
        d.errors.push_back(key + ": \"unconfined\" is refused (it would switch the protection off)");
      } else {
        s.warnings.push_back(key + " is ignored: clawexec sandboxes are built with bubblewrap, without an image or a "
                             "container engine");
      }
      continue;
    }
    if (name == "workdir") {
      if (auto w = r.string(v, key)) {
        if (!absolute(*w) || w->find("/../") != std::string::npos || w->size() < 2) {
          d.errors.push_back(key + ": expected an absolute directory other than /, got " + describe_value(v));
        } else {
          s.workdir = strip_trailing_slashes(*w);
        }
      }
    } else if (name == "readOnlyRoot") {
      if (auto b = r.boolean(v, key); b && !*b) {
        s.warnings.push_back(key + " = false is ignored: the system directories of a clawexec sandbox are always "
                             "read-only (use binds or tmpfs for writable paths)");
      }
    } else if (name == "tmpfs") {
      if (auto list = r.strings(v, key)) {
        s.tmpfs.clear();
        for (std::string t : *list) {
          t = t.substr(0, t.find(':'));  // Docker's "path:options"
          if (!absolute(t)) {
            d.errors.push_back(key + ": expected absolute paths, got \"" + t + "\"");
          } else {
            s.tmpfs.push_back(strip_trailing_slashes(t));
          }
        }
      }
    } else if (name == "network") {
      if (auto n = r.string(v, key)) {
        if (*n == "none") {
          s.network = SandboxNetwork::kNone;
        } else if (*n == "bridge") {
          s.network = SandboxNetwork::kBridge;
        } else if (*n == "host") {
          d.errors.push_back(key + ": \"host\" is refused: a sandbox must not share the host's network namespace");
        } else if (n->rfind("container:", 0) == 0) {
          d.errors.push_back(key + ": \"" + *n + "\" is refused: there are no containers to join");
        } else {
          d.errors.push_back(key + ": expected one of none, bridge, got " + describe_value(v));
        }
      }
    } else if (name == "user") {
      std::optional<std::string> u;
      if (v.is_int64() && v.get_int64() >= 0) {
        u = std::to_string(v.get_int64());
      } else if (v.is_string()) {
        u = std::string(v.get_string());
      }
      bool ok = u && !u->empty();
      if (ok) {
        size_t colon = u->find(':');
        std::string a = u->substr(0, colon), b = colon == std::string::npos ? "0" : u->substr(colon + 1);
        ok = !a.empty() && !b.empty() && a.find_first_not_of("0123456789") == std::string::npos &&
             b.find_first_not_of("0123456789") == std::string::npos && a.size() < 10 && b.size() < 10;
      }
      if (!ok) {
        d.errors.push_back(key + ": expected \"uid\" or \"uid:gid\" (numbers; a sandbox has no image with user "
                           "names), got " + describe_value(v));
      } else {
        s.user = *u;
      }
    } else if (name == "capDrop") {
      if (auto list = r.strings(v, key)) {
        bool all = false;
        for (const std::string& c : *list) all = all || c == "ALL" || c == "all";
        if (!all) s.warnings.push_back(key + ": every capability is always dropped in a clawexec sandbox");
      }
    } else if (name == "env") {
      if (!v.is_object()) {
        d.errors.push_back(key + ": expected an object of strings, got " + describe_value(v));
        continue;
      }
      s.env.clear();
      for (const auto& e : v.get_object()) {
        if (!e.value().is_string()) {
          d.errors.push_back(child_path(key, e.key()) + ": expected a string, got " + describe_value(e.value()));
          continue;
        }
        s.env.emplace_back(std::string(e.key()), std::string(e.value().get_string()));
      }
    } else if (name == "setupCommand") {
      if (auto c = r.string(v, key)) s.setup_command = trim_ascii(*c).empty() ? std::nullopt : std::optional(*c);
    } else if (name == "pidsLimit") {
      if (auto n = r.positive_integer(v, key)) s.pids_limit = *n;
    } else if (name == "memory" || name == "memorySwap") {
      std::optional<int64_t> bytes;
      if (v.is_string()) bytes = parse_memory_size(v.get_string());
      if (v.is_int64() && v.get_int64() > 0) bytes = v.get_int64();
      if (!bytes) {
        d.errors.push_back(key + ": expected a size such as \"512m\" or \"2g\" (or bytes), got " + describe_value(v));
      } else if (name == "memory") {
        s.memory_bytes = bytes;
      } else {
        s.memory_swap_bytes = bytes;
      }
    } else if (name == "cpus") {
      if (auto n = r.number(v, key)) {
        if (*n <= 0 || *n > 4096) {
          d.errors.push_back(key + ": expected a positive number of CPUs, got " + describe_value(v));
        } else {
          s.cpus = *n;
        }
      }
    } else if (name == "ulimits") {
      if (!v.is_object()) {
        d.errors.push_back(key + ": expected an object, got " + describe_value(v));
        continue;
      }
      static constexpr std::string_view kKnown[] = {"cpu",  "fsize",   "data", "stack",      "core",     "nproc", "nofile",
                                                    "memlock", "as", "locks", "sigpending", "msgqueue", "nice",  "rtprio"};
      for (const auto& u : v.get_object()) {
        std::string ukey = child_path(key, u.key());
        bool known = false;
        for (std::string_view k : kKnown) known = known || u.key() == k;
        if (!known) {
          d.errors.push_back(ukey + ": unknown ulimit (known: cpu, fsize, data, stack, core, nproc, nofile, memlock, "
                             "as, locks, sigpending, msgqueue, nice, rtprio)");
          continue;
        }
        SandboxUlimit limit{std::string(u.key())};
        if (u.value().is_object()) {
          const json::object& o = u.value().get_object();
          const json::value* soft = o.if_contains("soft");
          const json::value* hard = o.if_contains("hard");
          if (!soft || !hard) {
            d.errors.push_back(ukey + ": expected {soft, hard}");
            continue;
          }
          int64_t sv = r.positive_integer(*soft, ukey + ".soft").value_or(-1);
          int64_t hv = r.positive_integer(*hard, ukey + ".hard").value_or(-1);
          if (sv < 0 || hv < 0) continue;
          if (sv > hv) {
            d.errors.push_back(ukey + ": soft is above hard");
            continue;
          }
          limit.soft = sv;
          limit.hard = hv;
        } else if (auto n = r.positive_integer(u.value(), ukey)) {
          limit.soft = limit.hard = *n;
        } else {
          continue;
        }
        s.ulimits.push_back(limit);
      }
    } else if (name == "dns") {
      if (auto list = r.strings(v, key)) {
        s.dns.clear();
        for (size_t i = 0; i < list->size(); ++i) {
          const std::string& ip = (*list)[i];
          if (!is_ip_address(ip)) {
            d.errors.push_back(key + "[" + std::to_string(i) + "]: expected an IPv4 or IPv6 address, got \"" + ip + "\"");
          } else {
            s.dns.push_back(ip);
          }
        }
      }
    } else if (name == "extraHosts") {
      if (auto list = r.strings(v, key)) {
        s.extra_hosts.clear();
        for (size_t i = 0; i < list->size(); ++i) {
          // Docker's "name:ip" (the address may itself hold colons: IPv6).
          const std::string& entry = (*list)[i];
          size_t colon = entry.find(':');
          std::string name_part = colon == std::string::npos ? "" : entry.substr(0, colon);
          std::string ip = colon == std::string::npos ? "" : entry.substr(colon + 1);
          if (!is_host_name(name_part) || !is_ip_address(ip)) {
            d.errors.push_back(key + "[" + std::to_string(i) + "]: expected \"name:ip\", got \"" + entry + "\"");
          } else {
            s.extra_hosts.push_back(name_part + ":" + ip);
          }
        }
      }
    } else if (name == "binds") {
      if (auto list = r.strings(v, key)) {
        for (size_t i = 0; i < list->size(); ++i) {
          std::string bkey = key + "[" + std::to_string(i) + "]";
          const std::string& text = (*list)[i];
          std::vector<std::string> parts;
          size_t start = 0;
          while (true) {
            size_t colon = text.find(':', start);
            parts.push_back(text.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
            if (colon == std::string::npos) break;
            start = colon + 1;
          }
          if (parts.size() < 2 || parts.size() > 3 || (parts.size() == 3 && parts[2] != "ro" && parts[2] != "rw")) {
            d.errors.push_back(bkey + ": expected \"host:container[:ro|rw]\", got \"" + text + "\"");
            continue;
          }
          if (!absolute(parts[0]) || !absolute(parts[1])) {
            d.errors.push_back(bkey + ": both paths must be absolute, got \"" + text + "\"");
            continue;
          }
          binds.push_back({strip_trailing_slashes(parts[0]), strip_trailing_slashes(parts[1]),
                           parts.size() == 3 && parts[2] == "ro", bkey});
        }
      }
    } else if (name == "dangerouslyAllowReservedContainerTargets") {
      if (auto b = r.boolean(v, key)) allow_reserved = *b;
    } else if (name == "dangerouslyAllowExternalBindSources") {
      (void)r.boolean(v, key);
    } else if (name == "protectWorkspaceMetadata") {
      if (auto b = r.boolean(v, key)) s.protect_git = *b;
    } else {
      s.warnings.push_back(key + " is not a known sandbox setting; ignored");
    }
  }
}

void read_sandbox_object(const json::object& sandbox, const std::string& path, SandboxSettings& s, Diagnostics& d,
                         std::vector<SandboxBind>& binds,
                         bool& allow_reserved) {
  Reader r{d};
  for (const auto& kv : sandbox) {
    std::string key = child_path(path, kv.key());
    std::string_view name = kv.key();
    const json::value& v = kv.value();
    if (name == "mode") {
      if (auto m = r.choice<SandboxMode>(v, key, {{"off", SandboxMode::kOff}, {"non-main", SandboxMode::kNonMain},
                                                   {"all", SandboxMode::kAll}})) {
        s.mode = *m;
      }
    } else if (name == "scope") {
      if (auto c = r.choice<SandboxScope>(v, key, {{"agent", SandboxScope::kAgent}, {"session", SandboxScope::kSession},
                                                    {"shared", SandboxScope::kShared}})) {
        s.scope = *c;
      }
    } else if (name == "workspaceAccess") {
      if (auto a = r.choice<WorkspaceAccess>(
              v, key, {{"none", WorkspaceAccess::kNone}, {"ro", WorkspaceAccess::kRo}, {"rw", WorkspaceAccess::kRw}})) {
        s.workspace_access = *a;
      }
    } else if (name == "workspaceRoot") {
      if (auto w = r.string(v, key)) {
        if (!absolute(*w)) {
          d.errors.push_back(key + ": expected an absolute directory, got " + describe_value(v));
        } else {
          s.workspace_root = strip_trailing_slashes(*w);
        }
      }
    } else if (name == "prune") {
      if (!v.is_object()) {
        d.errors.push_back(key + ": expected an object, got " + describe_value(v));
        continue;
      }
      for (const auto& p : v.get_object()) {
        std::string pkey = child_path(key, p.key());
        // Non-negative numbers, fractions allowed; 0 turns that limit off.
        auto milliseconds = [&](double per_unit) -> std::optional<int64_t> {
          std::optional<double> n = r.number(p.value(), pkey);
          if (!n) return std::nullopt;
          if (!(*n >= 0) || *n > 1e9) {
            d.errors.push_back(pkey + ": expected a number of 0 or more, got " + describe_value(p.value()));
            return std::nullopt;
          }
          return static_cast<int64_t>(*n * per_unit);
        };
        if (p.key() == "idleHours") {
          if (auto ms = milliseconds(3600e3)) s.prune_idle_ms = *ms;
        } else if (p.key() == "maxAgeDays") {
          if (auto ms = milliseconds(86400e3)) s.prune_max_age_ms = *ms;
        } else {
          s.warnings.push_back(pkey + " is not a known sandbox setting; ignored");
        }
      }
    } else if (name == "backend") {
      if (auto b = r.string(v, key); b && *b != "docker") {
        s.warnings.push_back(key + " = \"" + *b + "\" is ignored: clawexec's sandbox backend is bubblewrap");
      }
    } else if (name == "docker") {
      if (const json::object* docker = child_object(sandbox, "docker", key, d)) {
        read_docker(*docker, key, s, d, binds, allow_reserved);
      }
    } else {
      bool engine_only = false;
      for (std::string_view k : kEngineOnlySandboxKeys) engine_only = engine_only || name == k;
      s.warnings.push_back(key + (engine_only ? " is ignored: clawexec's sandbox backend is bubblewrap"
                                              : " is not a known sandbox setting; ignored"));
    }
  }
}

}  // namespace

std::optional<int64_t> parse_memory_size(std::string_view text) {
  text = trim_ascii(text);
  if (text.empty()) return std::nullopt;
  int64_t unit = 1;
  char last = static_cast<char>(std::tolower(static_cast<unsigned char>(text.back())));
  if (last == 'b') {
    text.remove_suffix(1);
    if (text.empty()) return std::nullopt;
    last = static_cast<char>(std::tolower(static_cast<unsigned char>(text.back())));
  }
  if (last == 'k' || last == 'm' || last == 'g' || last == 't') {
    unit = last == 'k' ? 1024 : last == 'm' ? 1024 * 1024 : last == 'g' ? 1024LL * 1024 * 1024 : 1024LL * 1024 * 1024 * 1024;
    text.remove_suffix(1);
  }
  if (text.empty() || text.size() > 15 || text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  int64_t n = std::stoll(std::string(text));
  if (n <= 0 || n > (int64_t{1} << 62) / unit) return std::nullopt;
  return n * unit;
}

std::optional<std::string> host_path_problem(const std::string& host, const std::string& key, const std::string& home_dir,
                                             const std::string& canonical_host) {
  static const std::string kBlocked[] = {"/etc", "/private/etc", "/proc", "/sys", "/dev", "/root", "/boot",
                                         "/run", "/var/run", "/private/var/run"};
  static const std::string kHomeSecrets[] = {".aws", ".cargo", ".config", ".docker", ".gnupg",
                                             ".netrc", ".npm", ".ssh", ".openclaw"};
  std::vector<std::string> blocked(std::begin(kBlocked), std::end(kBlocked));
  if (!home_dir.empty()) {
    for (const std::string& s : kHomeSecrets) blocked.push_back(strip_trailing_slashes(home_dir) + "/" + s);
  }
  for (const std::string& source : {host, canonical_host}) {
    if (source.find("docker.sock") != std::string::npos) {
      return key + ": binding the container engine's socket (" + source + ") is refused";
    }
    for (const std::string& b : blocked) {
      // Refused when the source is a blocked path, inside one, or contains one (binding / or
      // the home directory would expose them all).
      if (under(source, b) || under(b, source)) {
        return key + ": the host path " + host + (source == host ? "" : " (" + source + " after resolving symlinks)") +
               " exposes " + b + ", which a sandbox must not see";
      }
    }
  }
  return std::nullopt;
}

std::vector<std::string> bind_problems(const SandboxSettings& settings, const std::string& home_dir,
                                       const std::function<std::string(const std::string&)>& canonicalize) {
  std::vector<std::string> problems;
  for (const SandboxBind& bind : settings.binds) {
    std::string canonical = canonicalize ? canonicalize(bind.host) : bind.host;
    if (auto problem = host_path_problem(bind.host, bind.key, home_dir, canonical)) {
      problems.push_back(std::move(*problem));
      continue;
    }
    if (settings.allow_reserved_targets) continue;
    for (const std::string& reserved : {std::string("/workspace"), std::string("/agent"), settings.workdir}) {
      if (under(bind.container, reserved)) {
        problems.push_back(bind.key + ": " + bind.container + " is reserved for the sandbox's workspace (" + reserved + ")");
        break;
      }
    }
  }
  return problems;
}

Result<SandboxSettings> read_sandbox_settings(const json::object& document, std::string_view agent_id,
                                              const std::string& home_dir,
                                              const std::function<std::string(const std::string&)>& canonicalize) {
  Diagnostics d;
  SandboxSettings s;
  std::vector<SandboxBind> binds;
  bool allow_reserved = false;
  const json::object* agents = child_object(document, "agents", "agents", d);
  if (agents) {
    if (const json::object* defaults = child_object(*agents, "defaults", "agents.defaults", d)) {
      if (const json::object* sandbox = child_object(*defaults, "sandbox", "agents.defaults.sandbox", d)) {
        read_sandbox_object(*sandbox, "agents.defaults.sandbox", s, d, binds, allow_reserved);
      }
    }
    const std::string wanted = normalize_agent_id(agent_id);
    if (const json::object* entries = child_object(*agents, "entries", "agents.entries", d)) {
      for (const auto& entry : *entries) {
        if (normalize_agent_id(entry.key()) != wanted || !entry.value().is_object()) continue;
        std::string path = child_path("agents.entries", entry.key()) + ".sandbox";
        if (const json::object* sandbox = child_object(entry.value().get_object(), "sandbox", path, d)) {
          read_sandbox_object(*sandbox, path, s, d, binds, allow_reserved);
        }
        break;
      }
    }
  }
  s.binds = std::move(binds);
  s.allow_reserved_targets = allow_reserved;
  for (std::string& problem : bind_problems(s, home_dir, canonicalize)) d.errors.push_back(std::move(problem));
  if (!d.errors.empty()) return Error::invalid(join(d.errors, "\n"));
  for (std::string& w : d.warnings) s.warnings.push_back(std::move(w));
  return s;
}

bool is_main_session(std::string_view session_key, std::string_view agent_id) {
  std::string key(trim_ascii(session_key));
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key == "agent:" + normalize_agent_id(agent_id) + ":main";
}

bool sandbox_active(const SandboxSettings& settings, std::string_view session_key, std::string_view agent_id) {
  switch (settings.mode) {
    case SandboxMode::kOff: return false;
    case SandboxMode::kAll: return true;
    case SandboxMode::kNonMain: return !is_main_session(session_key, agent_id);
  }
  return false;
}

std::string sandbox_scope_key(const SandboxSettings& settings, std::string_view session_key, std::string_view agent_id) {
  switch (settings.scope) {
    case SandboxScope::kAgent: return "agent:" + std::string(agent_id);
    case SandboxScope::kSession: return std::string(session_key);
    case SandboxScope::kShared: return "shared";
  }
  return "shared";
}

std::string sandbox_root(const SandboxSettings& settings, const std::string& state_dir) {
  return settings.workspace_root.empty() ? state_dir + "/sandboxes" : settings.workspace_root;
}

}  // namespace clawexec::config
