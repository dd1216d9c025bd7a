// probe: print the routes SimGrid computes, to check ours against (tests/check_routing.c).
//
//   probe PLATFORM all              every ordered pair of hosts
//   probe PLATFORM SRC DST ...      the given pairs
//
// Output: one "link NAME bw=B lat=L POLICY" line per link of the platform (sorted by name),
// then one line per pair:
//   SRC -> DST: COUNT lat=LATENCY : LINK...
//   SRC -> DST: EXCEPTION message
// Values are printed with %.17g. The platform is sealed first (as a simulation would), so
// Full/Floyd/Dijkstra zones have their loopback routes.
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

static const char* policy_name(sg4::Link::SharingPolicy p)
{
  switch (p) {
    case sg4::Link::SharingPolicy::SHARED:
      return "SHARED";
    case sg4::Link::SharingPolicy::FATPIPE:
      return "FATPIPE";
    case sg4::Link::SharingPolicy::SPLITDUPLEX:
      return "SPLITDUPLEX";
    default:
      return "OTHER";
  }
}

static void show(const sg4::Host* a, const sg4::Host* b)
{
  std::vector<sg4::Link*> links;
  double lat = 0;
  try {
    a->route_to(b, links, &lat);
  } catch (const std::exception& e) {
    std::printf("%s -> %s: EXCEPTION %s\n", a->get_cname(), b->get_cname(), e.what());
    return;
  }
  std::printf("%s -> %s: %zu lat=%.17g :", a->get_cname(), b->get_cname(), links.size(), lat);
  for (const auto* l : links)
    std::printf(" %s", l->get_cname());
  std::printf("\n");
}

int main(int argc, char** argv)
{
  sg4::Engine e(&argc, argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s PLATFORM all|SRC DST...\n", argv[0]);
    return 2;
  }
  e.load_platform(argv[1]);
  e.seal_platform();
  std::vector<sg4::Link*> all = e.get_all_links();
  std::sort(all.begin(), all.end(),
            [](const sg4::Link* x, const sg4::Link* y) { return std::strcmp(x->get_cname(), y->get_cname()) < 0; });
  for (const auto* l : all)
    std::printf("link %s bw=%.17g lat=%.17g %s\n", l->get_cname(), l->get_bandwidth(), l->get_latency(),
                policy_name(l->get_sharing_policy()));
  if (std::strcmp(argv[2], "all") == 0) {
    std::vector<sg4::Host*> hosts = e.get_all_hosts();
    std::sort(hosts.begin(), hosts.end(),
              [](const sg4::Host* x, const sg4::Host* y) { return std::strcmp(x->get_cname(), y->get_cname()) < 0; });
    for (const auto* a : hosts)
      for (const auto* b : hosts)
        show(a, b);
  } else {
    for (int i = 2; i + 1 < argc; i += 2)
      show(sg4::Host::by_name(argv[i]), sg4::Host::by_name(argv[i + 1]));
  }
  return 0;
}
