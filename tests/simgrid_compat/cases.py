"""The SimGrid-compatibility cases (issue 22): a SimGrid user's platform, hostfile and
command line, run by our smpirun and by SimGrid 3.32's with the same program (sgc.c).

Each case: (name, smpirun arguments before the program, hostfile text or None, what our
output must also show: a regex, or None). "{data}" stands for tests/data/simgrid-compat and
"{hostfile}" for the case's hostfile. Every case runs with smpi/simulate-computation:no, so
that only smpi_execute_flops computes and the time does not depend on the machine. The
program is sgc.c, or sge.c (energy and pstates) for the cases named energy_*.

What is compared (values(), the same parser for both simulators): every "KEY VALUE" line the
program prints (time, per-rank energies...), and the energy plugin's end-of-run lines
("Total energy consumption", "Energy consumption of host H"). SimGrid's values are recorded
by tools/simgrid-ref/record_compat.py into tests/data/simgrid-ref/compat_times.txt; run.py
compares ours with them.
"""
import re


def program(name):
    if name.startswith("state_recv"):
        return "sgd"
    return "sge" if name.startswith("energy_") else "sgi" if name.startswith("ib_") else "sgc"


def values(output):
    """{key: float} of one run's output (stdout and stderr together)."""
    out = {}
    for m in re.finditer(r"^(\w+) ([-+0-9.e]+)$", output, re.M):
        out[m.group(1)] = float(m.group(2))
    # state profiles: the date a failed communication ended the job, or of a deadlock on a
    # killed rank (ours: our reports; SimGrid's: its log lines, with the date format that
    # record_compat.py gives the state_* cases)
    m = re.search(r"^smpi: communication failure at simulated date (\S+):", output, re.M) or \
        re.search(r"^\[(\S+)\] \S+ (Actor pid=\d+ is gone|Actor killed by an uncaught "
                  r"exception \S*NetworkFailureException)", output, re.M)
    if m:
        out["failed_at"] = float(m.group(1))
    m = re.search(r"^smpi: deadlock at simulated time (\S+) s", output, re.M) or \
        re.search(r"^\[(\S+)\] maestro Oops! Deadlock detected", output, re.M)
    if m:
        out["deadlock_at"] = float(m.group(1))
    m = re.search(r"\[host_energy/INFO\] Total energy consumption: (\S+) Joules", output)
    if m:
        out["total_energy"] = float(m.group(1))
    for m in re.finditer(r"\[host_energy/INFO\] Energy consumption of host (.+): (\S+) Joules",
                         output):
        out["host_energy:" + m.group(1).replace(" ", "_")] = float(m.group(2))
    m = re.search(r"\[link_energy/INFO\] Total energy over all links: (\S+)", output)
    if m:
        out["total_link_energy"] = float(m.group(1))
    for m in re.finditer(r"\[link_energy/INFO\] Energy consumption of link '(.+)': (\S+) Joules",
                         output):
        out["link_energy:" + m.group(1).replace(" ", "_")] = float(m.group(2))
    return out


CASES = [
    # more ranks than hosts, no hostfile: round-robin with a note, as SimGrid does
    ("oversubscribed_pair", ["-np", "4", "-platform", "{data}/pair.xml"], None,
     r"-np 4 is more than the 2 hosts of platform .*round-robin"),
    # host names with spaces in a hostfile (SimGrid's syntax: the line is the name)
    ("hostfile_spaces", ["-np", "3", "-platform", "{data}/spaces.xml", "-hostfile", "{hostfile}"],
     "Cpu C:1\nCpu B\nCpu A:1\n", None),
    # <config> keys SimGrid knows and we do not: one warning each; host/model:default set
    # explicitly is SimGrid's LV08 network
    ("config_simgrid_keys", ["-np", "2", "-platform", "{data}/config_keys.xml"], None,
     r"configuration key 'tracing/platform/topology' \(platform file\) is a SimGrid option "
     r"that smpi does not implement: 'tracing/platform/topology:yes' ignored"),
    # 0 flop/s pstates are accepted where no rank runs
    ("zero_pstate", ["-np", "2", "-platform", "{data}/zero_pstate.xml"], None, None),
    # availability profiles: speed_file (looping) and availability_file (once, first event
    # after 0) on hosts; bandwidth_file on a link crossed while it changes; an inline <trace>
    ("profile_speed", ["-np", "2", "-platform", "{data}/profile_speed.xml"], None, None),
    ("profile_bandwidth", ["-np", "2", "-platform", "{data}/profile_bandwidth.xml"], None, None),
    ("profile_inline", ["-np", "2", "-platform", "{data}/profile_inline.xml"], None, None),
    ("profile_latency", ["-np", "2", "-platform", "{data}/profile_latency.xml"], None, None),
    # smpirun options of SimGrid users' scripts: accepted, with a note when not needed here
    # (not -tmpdir DIR: SimGrid 3.32's smpirun shifts only the option, then takes DIR for
    # the program and fails; ours takes the value)
    # SimGrid's host energy plugin: pstates, both wattage forms, multi-core loads, and
    # sg_host_set_pstate / sg_host_get_consumed_energy from the program
    ("energy_hosts", ["-np", "2", "-platform", "{data}/energy.xml",
                      "--cfg=plugin:host_energy"], None, None),
    # (every host that starts in a pstate other than 0 is used from date 0: SimGrid counts
    # such a host with pstate 0's wattage until its first activity, see kernel/energy.c)
    ("energy_multicore", ["-np", "4", "-platform", "{data}/energy.xml", "-hostfile",
                          "{hostfile}", "--cfg=plugin:host_energy"], "C:3\nB:1\n", None),
    ("energy_cluster", ["-np", "3", "-platform", "{data}/energy_cluster.xml",
                        "--cfg=plugin:host_energy"], None, None),
    # SimGrid's link energy plugin (zero latencies: see link_energy.xml), with host_energy
    # on too (hosts without wattage: 0 W)
    ("link_energy", ["-np", "3", "-platform", "{data}/link_energy.xml",
                     "--cfg=plugin:link_energy", "--cfg=plugin:host_energy"], None, None),
    # Vivaldi zones: hosts by coordinates (latency-only routes), <peer>s with private links
    ("vivaldi_hosts", ["-np", "4", "-platform", "{data}/vivaldi_hosts.xml"], None, None),
    ("vivaldi_peers", ["-np", "3", "-platform", "{data}/vivaldi_peers.xml"], None,
     r"peer '100030591': the lat attribute is deprecated and ignored"),
    # sub-zones of a Vivaldi zone, ranks inside one (SimGrid aborts between them)
    ("vivaldi_zones", ["-np", "2", "-platform", "{data}/vivaldi_zones.xml", "-hostfile",
                       "{hostfile}"], "a1\na2\n", None),
    # state profiles (state_file, HOST_AVAIL): a host turned off kills its ranks; SimGrid
    # 3.32 then aborts the job at the first communication with one of them (posted to it,
    # or under way), and a link turned off fails the messages crossing it (under way, or
    # posted while it is off). Host C, without ranks, goes off and on forever in each.
    ("state_host_compute", ["-np", "2", "-platform", "{data}/state_host_compute.xml"], None,
     r"smpi: rank 1 killed at simulated date 0.050000000000000003: its host 'B' went down"
     r"[\s\S]*MPI_Sendrecv of 100000 bytes from rank 0 \(host 'A'\) to rank 1 \(host 'B'\): "
     r"rank 1 was killed at 0.050000000000000003 when its host went down"),
    ("state_host_transfer", ["-np", "2", "-platform", "{data}/state_host_transfer.xml"], None,
     r"host 'B' went down; the job ends"),
    ("state_host_later", ["-np", "2", "-platform", "{data}/state_host_later.xml"], None,
     r"rank 1 killed at simulated date 0.14999999999999999"),
    ("state_host_idle", ["-np", "2", "-platform", "{data}/state_host_idle.xml"], None, None),
    ("state_host_inline", ["-np", "2", "-platform", "{data}/state_host_inline.xml"], None,
     r"rank 1 killed at simulated date 0.050000000000000003"),
    # a receive from a killed rank waits forever: a deadlock, reported at 0.1 s by both
    ("state_recv_killed", ["-np", "2", "-platform", "{data}/state_host_compute.xml"], None,
     r"rank 1 was killed at simulated date 0.050000000000000003: its host went down"),
    ("state_link_transfer", ["-np", "2", "-platform", "{data}/state_link_transfer.xml"], None,
     r"link 'L' went down; the job ends"),
    ("state_link_blip", ["-np", "2", "-platform", "{data}/state_link_blip.xml"], None, None),
    # network/model:IB (SimGrid's InfiniBand penalties), sgi.c: a 3-neighbour exchange,
    # a fan-out and a fan-in; with 3 ranks some flows are self-sends (not counted, as in
    # SimGrid); other penalty factors
    ("ib_default", ["-np", "8", "-platform", "{data}/ib_cluster.xml", "--cfg=network/model:IB"],
     None, None),
    ("ib_selfsends", ["-np", "3", "-platform", "{data}/ib_cluster.xml",
                      "--cfg=network/model:IB"], None, None),
    ("ib_factors", ["-np", "5", "-platform", "{data}/ib_cluster.xml", "--cfg=network/model:IB",
                    "--cfg=smpi/IB-penalty-factors:0.5;0.7;2"], None, None),
    ("launcher_options", ["-quiet", "-keep-temps", "-foreground", "-analyze",
                          "-np", "2", "-platform", "{data}/pair.xml"], None,
     r"-keep-temps accepted for SimGrid compatibility: not needed here[\s\S]*"
     r"smpi: simulated time"),
]
