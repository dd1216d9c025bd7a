/* netref: record reference simulated dates from SimGrid (S4U) for our simulator's tests.
 *
 * Each "scenario" is simulated in a fresh forked child, so that every scenario starts at
 * date 0 in a fresh engine (a SimGrid engine can be created only once per process) and the
 * output of one command is self-contained.
 *
 *   netref [--cfg=KEY:VALUE]... [--log=...]... PLATFORM MODE ARGS...
 *
 *   MODE pair SRC DST SIZE...      one scenario per SIZE: one transfer of SIZE bytes SRC->DST
 *                                  prints   size completion_date
 *   MODE flows SCEN...             SCEN = FLOW[+FLOW]...,  FLOW = SRC,DST,SIZE[,START]
 *                                  all flows of a scenario in one simulation
 *                                  prints   scenario flow src dst size start completion_date
 *   MODE exec SCEN...              SCEN = EXEC[+EXEC]...,  EXEC = HOST,FLOPS[,START]
 *                                  prints   scenario exec host flops start completion_date
 *
 * Scenarios are numbered from 0 in command-line order. Dates are printed with %.17g.
 * A transfer is a mailbox put/get pair: one sender actor on SRC, one receiver actor on DST,
 * both created at date 0; the sender sleeps until START (default 0) before putting, the
 * receiver posts its get at date 0, so the communication starts at START. Its completion date
 * is the simulated clock when the receiver's get returns.
 */
#include <simgrid/s4u.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

struct Flow {
  std::string src;
  std::string dst;
  double size;
  double start;
  double done = -1;
};

struct Exec {
  std::string host;
  double flops;
  double start;
  double done = -1;
};

[[noreturn]] void die(const std::string& msg)
{
  std::fprintf(stderr, "netref: %s\n", msg.c_str());
  std::exit(2);
}

std::vector<std::string> split(const std::string& s, char sep)
{
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

double to_double(const std::string& s)
{
  char* end = nullptr;
  errno     = 0;
  double v  = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || errno != 0 || v < 0)
    die("not a non-negative number: '" + s + "'");
  return v;
}

std::vector<Flow> parse_flows(const std::string& scen)
{
  std::vector<Flow> flows;
  for (const auto& f : split(scen, '+')) {
    auto p = split(f, ',');
    if (p.size() != 3 && p.size() != 4)
      die("flow must be SRC,DST,SIZE[,START]: '" + f + "'");
    flows.push_back(Flow{p[0], p[1], to_double(p[2]), p.size() == 4 ? to_double(p[3]) : 0.0});
  }
  return flows;
}

std::vector<Exec> parse_execs(const std::string& scen)
{
  std::vector<Exec> execs;
  for (const auto& e : split(scen, '+')) {
    auto p = split(e, ',');
    if (p.size() != 2 && p.size() != 3)
      die("exec must be HOST,FLOPS[,START]: '" + e + "'");
    execs.push_back(Exec{p[0], to_double(p[1]), p.size() == 3 ? to_double(p[2]) : 0.0});
  }
  return execs;
}

sg4::Host* host_or_die(const std::string& name)
{
  sg4::Host* h = sg4::Host::by_name_or_null(name);
  if (h == nullptr)
    die("no host named '" + name + "' in the platform");
  return h;
}

/* Simulates one scenario in this (child) process. Results are written into the vectors. */
void simulate(const std::vector<std::string>& engine_args, const std::string& platform, std::vector<Flow>& flows,
              std::vector<Exec>& execs)
{
  std::vector<std::string> args_copy = engine_args;
  std::vector<char*> argv;
  for (auto& a : args_copy)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(argv.size()) - 1;

  sg4::Engine e(&argc, argv.data());
  e.load_platform(platform);

  static int token; /* the payload pointer; its content is never used */
  for (size_t i = 0; i < flows.size(); i++) {
    Flow* f              = &flows[i];
    sg4::Mailbox* mb     = sg4::Mailbox::by_name("flow-" + std::to_string(i));
    sg4::Host* src       = host_or_die(f->src);
    sg4::Host* dst       = host_or_die(f->dst);
    sg4::Actor::create("send-" + std::to_string(i), src, [f, mb] {
      if (f->start > 0)
        sg4::this_actor::sleep_until(f->start);
      mb->put(&token, static_cast<uint64_t>(f->size));
    });
    sg4::Actor::create("recv-" + std::to_string(i), dst, [f, mb] {
      mb->get<int>();
      f->done = sg4::Engine::get_clock();
    });
  }
  for (size_t i = 0; i < execs.size(); i++) {
    Exec* x = &execs[i];
    sg4::Actor::create("exec-" + std::to_string(i), host_or_die(x->host), [x] {
      if (x->start > 0)
        sg4::this_actor::sleep_until(x->start);
      sg4::this_actor::execute(x->flops);
      x->done = sg4::Engine::get_clock();
    });
  }
  e.run();
}

/* Runs fn in a forked child; the parent never creates an engine. */
template <class F> void in_child(F fn)
{
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0)
    die(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    fn();
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(0);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0)
    die(std::string("waitpid failed: ") + std::strerror(errno));
  if (not WIFEXITED(status) || WEXITSTATUS(status) != 0)
    die("a simulation child failed (see the messages above)");
}

} // namespace

int main(int argc, char** argv)
{
  std::vector<std::string> engine_args{argv[0]};
  std::vector<std::string> pos;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a.rfind("--cfg=", 0) == 0 || a.rfind("--log=", 0) == 0)
      engine_args.push_back(a);
    else
      pos.push_back(a);
  }
  if (pos.size() < 2)
    die("usage: netref [--cfg=K:V]... PLATFORM (pair SRC DST SIZE... | flows SCEN... | exec SCEN...)");
  const std::string platform = pos[0];
  const std::string mode     = pos[1];

  if (mode == "pair") {
    if (pos.size() < 5)
      die("usage: netref PLATFORM pair SRC DST SIZE...");
    std::printf("# columns: size(bytes) completion_date(s)\n");
    for (size_t i = 4; i < pos.size(); i++) {
      std::vector<Flow> flows{Flow{pos[2], pos[3], to_double(pos[i]), 0.0}};
      in_child([&] {
        std::vector<Exec> none;
        simulate(engine_args, platform, flows, none);
        if (flows[0].done < 0)
          die("transfer did not complete");
        std::printf("%.17g %.17g\n", flows[0].size, flows[0].done);
      });
    }
  } else if (mode == "flows") {
    std::printf("# columns: scenario flow src dst size(bytes) start(s) completion_date(s)\n");
    for (size_t s = 2; s < pos.size(); s++) {
      std::vector<Flow> flows = parse_flows(pos[s]);
      in_child([&] {
        std::vector<Exec> none;
        simulate(engine_args, platform, flows, none);
        for (size_t i = 0; i < flows.size(); i++) {
          if (flows[i].done < 0)
            die("a transfer did not complete");
          std::printf("%zu %zu %s %s %.17g %.17g %.17g\n", s - 2, i, flows[i].src.c_str(), flows[i].dst.c_str(),
                      flows[i].size, flows[i].start, flows[i].done);
        }
      });
    }
  } else if (mode == "exec") {
    std::printf("# columns: scenario exec host flops start(s) completion_date(s)\n");
    for (size_t s = 2; s < pos.size(); s++) {
      std::vector<Exec> execs = parse_execs(pos[s]);
      in_child([&] {
        std::vector<Flow> none;
        simulate(engine_args, platform, none, execs);
        for (size_t i = 0; i < execs.size(); i++) {
          if (execs[i].done < 0)
            die("an execution did not complete");
          std::printf("%zu %zu %s %.17g %.17g %.17g\n", s - 2, i, execs[i].host.c_str(), execs[i].flops,
                      execs[i].start, execs[i].done);
        }
      });
    }
  } else {
    die("unknown mode '" + mode + "' (pair, flows or exec)");
  }
  return 0;
}
