#!/usr/bin/env python3
"""The bad-input catalogue (issue 9): smpirun and smpi-calibrate fed wrong platforms, wrong
options, missing or unreadable files, and MPI programs that deadlock, crash, abort or misuse
the API. Every case must

  - end within the time limit (5 s; the process group is killed after it: a hang fails),
  - exit as the table says: "nonzero", a given code, or 0 for MPI-defined outcomes
    (MPI_ERRORS_RETURN, a user error handler, warnings); a rank's crash ends smpirun with
    the rank's signal, after a report naming the rank and the signal,
  - print a message matching the case's regex (the message names the problem),
  - not crash the simulator itself: no death of smpirun by a signal, no internal assertion
    ("invariant", "ASSERT", "BUG"), no sanitizer report,
  - not print a misleading result: a failing case must not print "bad: OK" nor a simulated
    time (smpi: simulated time ...).

Usage: run.py SMPIRUN BADPROG DATADIR [SMPI_CALIBRATE] [--timeout S] [-v] [-k NAME]
  BADPROG   tests/badinput/bad.c built with smpicc; DATADIR tests/data.
  -k NAME   run only the cases whose name contains NAME. -v prints every case's output.
Exit status: 0 if every case passed, 1 otherwise (each failure explained on stderr).

CI runs as root, so "unreadable" files are directories (root reads any mode-000 file).
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

DOCTYPE = '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
PLATFORM_OK = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" radical="0-3" suffix="" speed="1Gf" bw="10Gbps" lat="1us"/>
</platform>
"""

# files written into the case directory; "{name}" in a case's argv is replaced by its path
FILES = {
    "ok.xml": PLATFORM_OK,
    "empty.xml": "",
    "truncated.xml": PLATFORM_OK[: len(PLATFORM_OK) // 2],
    "garbage.xml": "this is not XML at all\n\x01\x02\x03\n",
    "nohost.xml": "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
                  "  <zone id=\"z\" routing=\"Full\"/>\n</platform>\n",
    "badspeed.xml": PLATFORM_OK.replace('speed="1Gf"', 'speed="fast"'),
    "negbw.xml": PLATFORM_OK.replace('bw="10Gbps"', 'bw="-10Gbps"'),
    "hosts.txt": "h0\nh1\n",
    "slots.txt": "h0:2\nh1:2\n",
    "empty_hosts.txt": "# nobody\n\n",
    "unknown_host.txt": "h0\nnode-77\n",
    "badslots.txt": "h0:0\n",
    "notes.txt": "just a text file\n",
    # found by fuzz_platform: an entity that references itself and, 10^8 times over, an
    # undefined one; libxml2 raised errors for over a minute before the parse stopped at the
    # first one
    "laughs.xml": '<?xml version=\'1.0\'?>\n<!DOCTYPE platform [\n<!ENTITY e0ol "llollollollol">\n<!ENTITY e1 "&e0;&e0;&e0;&e0;&e0;&e0;&e0;&e0;&e0;&e0;">\n<!ENTITY e2 "&e1;&e1;&e1;&e1;&e1;&e1;&e1;&e1;&e1;&e1;">\n<!ENTITY e3 "&e2;&e2;&e2;&e2;&e2;&e2;&e2;&e2;&e2;&e2;">\n<!ENTITY e4 "&e3;&e3;&e3;&e3;&e3;&e3;&e3;&e3;&e3;&e3;">\n<!ENTITY e5 "&e4;&e4;&e4;&e4;&e4;&e4;&e4;&e4;&e4;&e4;">\n<!ENTITY e6 "&e5;&e5;&e5;&e5;&e5;&e5;&e5;&e5;&e5;&e5;">\n<!ENTITY e7 "&e6;&e6;&e6;&e6;&e6;&e6;&e6;&e6;&e6;&e6;">\n<!ENTITY e8 "&e7;&e7;&e7;&e7;&e7;&e7;&e7;&e7;&e7;&e7;">\n<!ENTITY e9 "&e9;&e8;&e8;&e8;&e8;&e8;&e8;&e8;&e8;&e8;">\n]>\n<platform version="4.1"><zone id="&e9;" routing="Full"platform>\n',
    "empty.sko": "",
    # an attribute referencing a 100 kB entity 10^4 times (1 GB expanded): the loader took
    # over ten minutes (each reference re-concatenated the whole value)
    "bigentity.xml": PLATFORM_OK.replace(
        DOCTYPE, '<!DOCTYPE platform [<!ENTITY big "%s">]>' % ("x" * 100000)).replace(
        'suffix=""', 'suffix="%s"' % ("&big;" * 10000)),
    # elements inside an entity were silently skipped
    "entityelems.xml": PLATFORM_OK.replace(
        DOCTYPE, "<!DOCTYPE platform [<!ENTITY c '<cluster id=\"d\" prefix=\"d\" radical=\"0-3\" "
        "suffix=\"\" speed=\"1Gf\" bw=\"1Gbps\" lat=\"1us\"/>'>]>").replace(
        "</platform>", "&c;\n</platform>"),
}


def skampi_truncations(datadir):
    """(name, text) of SKaMPI outputs cut in the middle of a data line and of a block."""
    src = os.path.join(datadir, "skampi", "pingpong_np2_bindcore_run1.sko")
    text = open(src).read()
    lines = text.splitlines(keepends=True)
    begin = next(i for i, l in enumerate(lines) if l.startswith("# begin result"))
    first_end = next(i for i, l in enumerate(lines[begin:]) if l.startswith("# end result"))
    mid_block = "".join(lines[: begin + 6])
    mid_line = mid_block + lines[begin + 6][: len(lines[begin + 6]) // 3]
    return {"trunc_block.sko": mid_block, "trunc_line.sko": mid_line,
            "good.sko": text,
            # a run of SKaMPI without any ping-pong (a collective's block only)
            "collectives.sko": "".join(lines[: begin + 1 + first_end]).replace(
                '"Pingpong_Send_Recv"', '"Bcast"')}


BAD_C = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bad.c")


def at_line(text):
    """regex of " at <path>/bad.c:<line>" for the first line of bad.c containing text: the
    call site a report must name (bad.c is built with -g)"""
    with open(BAD_C) as f:
        for n, line in enumerate(f, 1):
            if text in line:
                return r" at \S*bad\.c:%d\b" % n
    raise SystemExit("run.py: '%s' is not in %s" % (text, BAD_C))


def data_platform(name):
    return os.path.join("@DATA@", "platforms", "bad", name)


# (name, argv (SR = smpirun, BAD = the program, CAL = smpi-calibrate), expected exit status
#  ("nonzero", an int, or 0; -N: killed by signal N), regex the output must match).
# A rank that crashes takes the whole simulation down (the ranks share its process): after
# its report, smpirun dies of the rank's signal, as the job of a crashed rank does under
# mpirun, so shells and CI see "Segmentation fault". Any other death by a signal is the
# simulator's own crash.
NZ = "nonzero"
CASES = [
    # --- platforms ---
    ("platform missing", ["SR", "-np", "2", "-platform", "/nonexistent/p.xml", "BAD"], NZ,
     r"cannot open platform file '/nonexistent/p.xml': No such file"),
    ("platform is a directory", ["SR", "-np", "2", "-platform", "{dir}", "BAD"], NZ,
     r"cannot read platform file: Is a directory|not a regular file"),
    # a FIFO used to block smpirun forever (opened before being checked); a pipe behind
    # /dev/stdin was "No such file or directory": both are refused, naming what they are
    ("platform is a FIFO", ["SR", "-np", "2", "-platform", "{fifo}", "BAD"], NZ,
     r"cannot use platform file '.*fifo': it is a FIFO or pipe, not a regular file"),
    ("platform is a pipe (/dev/stdin)",
     ["sh", "-c", 'cat "$2" | "$0" -np 2 -platform /dev/stdin "$1"', "SR", "BAD", "{ok.xml}"],
     NZ, r"cannot use platform file '/dev/stdin': it is a FIFO or pipe, not a regular file"),
    ("platform empty", ["SR", "-np", "2", "-platform", "{empty.xml}", "BAD"], NZ,
     r"empty.xml:1: not well-formed XML: Document is empty"),
    ("platform truncated", ["SR", "-np", "2", "-platform", "{truncated.xml}", "BAD"], NZ,
     r"truncated.xml:\d+: not well-formed XML"),
    ("platform not XML", ["SR", "-np", "2", "-platform", "{garbage.xml}", "BAD"], NZ,
     r"garbage.xml:1: not well-formed XML: Start tag expected"),
    ("platform entity expansion", ["SR", "-np", "2", "-platform", "{laughs.xml}", "BAD"], NZ,
     r"laughs.xml:\d+: not well-formed XML: Detected an entity reference loop"),
    ("platform entity expanded 10^4 times", ["SR", "-np", "2", "-platform", "{bigentity.xml}",
                                             "BAD"], NZ,
     r"bigentity.xml:\d+: attribute 'suffix' of <cluster>: entity references expand to more "
     r"than 16 MiB"),
    ("platform entity between elements", ["SR", "-np", "2", "-platform", "{entityelems.xml}",
                                          "BAD"], NZ,
     r"entityelems.xml:\d+: entity reference '&c;' inside <platform>: entities are only "
     r"supported in attribute values"),
    ("platform without hosts", ["SR", "-np", "2", "-platform", "{nohost.xml}", "BAD"], NZ,
     r"platform .*nohost.xml has no host to run on"),
    ("platform bad speed unit", ["SR", "-np", "2", "-platform", "{badspeed.xml}", "BAD"], NZ,
     r"badspeed.xml:4: cluster 'c': 'fast' is not a valid speed"),
    ("platform negative bandwidth", ["SR", "-np", "2", "-platform", "{negbw.xml}", "BAD"], NZ,
     r"negbw.xml:4: cluster 'c': negative bandwidth '-10Gbps'"),
    ("platform not well-formed", ["SR", "-np", "2", "-platform",
                                  data_platform("not_well_formed.xml"), "BAD"], NZ,
     r"not_well_formed.xml:6: not well-formed XML: Opening and ending tag mismatch"),
    ("platform no version", ["SR", "-np", "2", "-platform", data_platform("no_version.xml"),
                             "BAD"], NZ, r"<platform> has no version attribute"),
    ("platform unknown element", ["SR", "-np", "2", "-platform",
                                  data_platform("unknown_element.xml"), "BAD"], NZ,
     r"unknown_element.xml:6: unknown element <hots>"),
    ("platform unknown attribute", ["SR", "-np", "2", "-platform",
                                    data_platform("unknown_attribute.xml"), "BAD"], NZ,
     r"unknown attribute 'spead' in <host> \(did you mean 'speed'\?\)"),
    ("platform duplicate host", ["SR", "-np", "2", "-platform", data_platform("dup_host.xml"),
                                 "BAD"], NZ, r"duplicate host id 'h1'"),
    ("platform unknown link in route", ["SR", "-np", "2", "-platform",
                                        data_platform("unknown_link_in_route.xml"), "BAD"], NZ,
     r"route h1 -> h2: unknown link 'l2'"),
    ("platform include missing", ["SR", "-np", "2", "-platform",
                                  data_platform("include_missing.xml"), "BAD"], NZ,
     r"cannot read included file 'no_such_file.xml'.*No such file"),
    ("platform include cycle", ["SR", "-np", "2", "-platform",
                                data_platform("include_cycle_a.xml"), "BAD"], NZ,
     r"include cycle: .*include_cycle_a.xml -> .*include_cycle_b.xml"),
    # profiles were parsed and silently ignored (the run used constant speeds); speed ones
    # are simulated since issue 22: a missing file is named
    ("platform speed profile", ["SR", "-np", "2", "-platform",
                                data_platform("host_speed_file.xml"), "BAD"], NZ,
     r"host_speed_file.xml:5: host 'h1': attribute speed_file: cannot open profile "
     r"'.*no_such_profile.txt': No such file"),
    ("platform link state profile", ["SR", "-np", "2", "-platform",
                                     data_platform("link_state_file.xml"), "BAD"], NZ,
     r"link_state_file.xml:7: link 'l1': attribute state_file: cannot open profile "
     r"'.*no_such_profile.txt': No such file"),
    ("platform unknown routing", ["SR", "-np", "2", "-platform",
                                  data_platform("routing_unknown.xml"), "BAD"], NZ,
     r"zone 'z': unknown routing 'Fulll'"),
    ("platform fat tree host count", ["SR", "-np", "2", "-platform",
                                      data_platform("fat_tree_host_count.xml"), "BAD"], NZ,
     r"topo_parameters .* describe 16 hosts \(FAT_TREE\) but radical '0-31' gives 32"),
    # --- options ---
    ("unknown smpirun option", ["SR", "-frobnicate", "-np", "2", "BAD"], NZ,
     r"unknown option '-frobnicate'"),
    ("unknown cfg key", ["SR", "--cfg=smpi/no-such-key:1", "-np", "2", "BAD"], NZ,
     r"unknown configuration key 'smpi/no-such-key'"),
    ("cfg without value", ["SR", "--cfg=smpi/os", "-np", "2", "BAD"], NZ,
     r"expected key:value"),
    ("cfg integer not a number", ["SR", "--cfg=smpi/async-small-thresh:lots", "-np", "2",
                                  "BAD"], NZ, r"invalid value 'lots'.*integer"),
    ("cfg negative size", ["SR", "--cfg=smpi/async-small-thresh:-5", "-np", "2", "BAD"], NZ,
     r"invalid value '-5' for 'smpi/async-small-thresh' \(an integer >= 0 is expected"),
    ("cfg boolean not a boolean", ["SR", "--cfg=smpi/display-timing:maybe", "-np", "2",
                                   "BAD"], NZ, r"invalid value 'maybe'.*boolean"),
    ("cfg bad factor string", ["SR", "--cfg=smpi/os:1:2:x", "-np", "2", "BAD"], NZ,
     r"smpi/os.*per_byte \"x\" is not a number"),
    ("cfg unknown enum value", ["SR", "--cfg=smpi/privatization:sometimes", "-np", "2",
                                "BAD"], NZ, r"invalid value 'sometimes'.*one of"),
    ("cfg unknown collective algorithm", ["SR", "--cfg=smpi/bcast:teleport", "-np", "2",
                                          "BAD"], NZ, r"invalid value 'teleport' for 'smpi/bcast'"),
    ("bad log setting", ["SR", "--log=smpi.thresh:loud", "-np", "2", "BAD"], NZ,
     r"invalid log level 'loud'"),
    ("np missing value", ["SR", "-np"], NZ, r"-np needs a value"),
    ("np zero", ["SR", "-np", "0", "BAD"], NZ, r"-np needs a positive number.*'0'"),
    ("np negative", ["SR", "-np", "-3", "BAD"], NZ, r"-np needs a positive number.*'-3'"),
    ("np not a number", ["SR", "-np", "four", "BAD"], NZ, r"-np needs a positive number.*'four'"),
    # refused before anything is built for the ranks (smpi/launch/launch.c, check_memory):
    # within the time limit and MAX_RSS_KIB, where it used to grow to many GiB
    ("np far beyond memory", ["SR", "-np", "10000000", "BAD", "ok"], NZ,
     r"-np 10000000 needs at least [0-9.]+ [GT]iB of memory \([0-9.]+ KiB per rank: .*\), but "
     r"[0-9.]+ [KMGT]iB is available \(MemAvailable in /proc/meminfo\); run fewer ranks"),
    ("np within memory, no warning", ["SR", "-np", "64", "BAD", "ok"], 0,
     r"^(?![\s\S]*(needs at least|may run out))[\s\S]*bad: OK"),
    # without a hostfile, SimGrid's behaviour: round-robin with a note (issue 22)
    ("np above the platform's hosts", ["SR", "-np", "8", "-platform", "{ok.xml}", "BAD", "ok"],
     0, r"-np 8 is more than the 4 hosts of platform .*round-robin[\s\S]*bad: OK"),
    ("np above the hostfile's slots", ["SR", "-np", "3", "-platform", "{ok.xml}", "-hostfile",
                                       "{hosts.txt}", "BAD"], NZ,
     r"-np 3 asks for more processes than the 2 slots.*smpi/oversubscribe:yes"),
    ("oversubscription allowed", ["SR", "-np", "8", "-platform", "{ok.xml}",
                                  "--cfg=smpi/oversubscribe:yes", "BAD", "ok"], 0, r"bad: OK"),
    ("hostfile slots", ["SR", "-np", "4", "-platform", "{ok.xml}", "-hostfile", "{slots.txt}",
                        "BAD", "ok"], 0, r"bad: OK"),
    ("missing program", ["SR", "-np", "2"], NZ, r"no program to run"),
    ("program not found", ["SR", "-np", "2", "{dir}/no-such-program"], NZ,
     r"cannot find program '.*no-such-program'"),
    ("program not executable", ["SR", "-np", "2", "{notes.txt}"], NZ,
     r"(cannot find|cannot run) .*notes.txt"),
    ("program is a directory", ["SR", "-np", "2", "{dir}"], NZ, r"cannot (run|find)"),
    ("hostfile missing", ["SR", "-np", "2", "-platform", "{ok.xml}", "-hostfile",
                          "{dir}/no-hosts.txt", "BAD"], NZ,
     r"cannot open hostfile '.*no-hosts.txt': No such file"),
    ("hostfile empty", ["SR", "-np", "2", "-platform", "{ok.xml}", "-hostfile",
                        "{empty_hosts.txt}", "BAD"], NZ, r"lists no host"),
    ("hostfile unreadable (a directory)", ["SR", "-np", "2", "-platform", "{ok.xml}",
                                           "-hostfile", "{dir}", "BAD"], NZ,
     r"cannot read hostfile .*directory"),
    ("hostfile unknown host", ["SR", "-np", "2", "-platform", "{ok.xml}", "-hostfile",
                               "{unknown_host.txt}", "BAD"], NZ,
     r"unknown_host.txt:2: host 'node-77' is not in the platform"),
    ("hostfile zero slots", ["SR", "-np", "2", "-platform", "{ok.xml}", "-hostfile",
                             "{badslots.txt}", "BAD"], NZ, r"badslots.txt:1: bad slot count '0'"),
    # --- programs ---
    ("deadlock", ["SR", "-np", "2", "BAD", "deadlock"], NZ,
     r"deadlock.*\n(.*\n)*.*rank 0 .*MPI_Recv from rank 1"),
    ("collective deadlock", ["SR", "-np", "3", "BAD", "coll-deadlock"], NZ,
     r"deadlock(.*\n)*.*MPI_Barrier(.*\n)*.*rank 0 has already finished"),
    ("deadlock inside a rooted collective", ["SR", "-np", "2", "BAD", "root-deadlock"], NZ,
     r"deadlock(.*\n)*.*rank 0 .*MPI_Bcast \(root 1\): waiting for .*from rank 1"),
    ("segfault in a rank", ["SR", "-np", "2", "BAD", "segv"], -11,
     r"rank 1 .*crashed with SIGSEGV"),
    ("abort in a rank", ["SR", "-np", "2", "BAD", "abort"], -6, r"rank 1 .*crashed with SIGABRT"),
    ("SIGFPE in a rank", ["SR", "-np", "2", "BAD", "fpe"], -8, r"rank 1 .*crashed with SIGFPE"),
    ("stack overflow", ["SR", "-np", "2", "BAD", "stack-overflow"], NZ,
     r"stack overflow in actor 'rank 1'.*contexts/stack-size"),
    ("stack overflow by a 64 MiB frame", ["SR", "-np", "2", "BAD", "big-stack"], NZ,
     r"stack overflow in actor 'rank 1' \(stack: 8192 KiB; a frame reached \d+ KiB under "
     r"it\).*contexts/stack-size:\d+"),
    # a message copy runs in the maestro or another rank: the report names the message
    ("receive count past the receive buffer", ["SR", "-np", "2", "BAD", "recv-overrun"], -11,
     r"SIGSEGV .*while copying a message \(400000 bytes, tag 0\) from rank 0 \(MPI_Send, "
     r"count 100000 x MPI_INT.*\) to rank 1 \(MPI_Recv, count 100000 x MPI_INT = 400000 "
     r"bytes, buffer 0x[0-9a-f]+ \[0x[0-9a-f]+, 0x[0-9a-f]+\)\): the fault at 0x[0-9a-f]+ "
     r"lies in the receive buffer"),
    ("receive buffer freed while pending", ["SR", "-np", "2", "BAD", "recv-freed"], -11,
     r"while copying a message \(1048576 bytes.*to rank 1 \(MPI_Irecv, count 1048576 x "
     r"MPI_CHAR.*lies in the receive buffer: .*freed before the receive completed"),
    ("send count past the send buffer", ["SR", "-np", "2", "BAD", "send-overrun"], -11,
     r"while copying a message \(400000 bytes, tag 0\) from rank 0 \(MPI_Send, count "
     r"100000 x MPI_INT = 400000 bytes, buffer 0x.*lies in the send buffer"),
    ("send count past the send buffer (detached)", ["SR", "-np", "2", "BAD",
                                                    "send-overrun-small"], -11,
     r"while copying a message \(100 bytes, tag 0\) from rank 0 \(MPI_Send, count 100 x "
     r"MPI_CHAR.*to rank 1 \(not received yet\).*lies in the send buffer"),
    # the whole output is one line: no assertion, no second report
    ("heap overwritten, then a crash", ["SR", "-np", "2", "BAD", "heap-smash"], -11,
     r"\Asmpi: rank 1 (\(on host [^)]*\) )?crashed with SIGSEGV[^\n]*\n\Z"),
    ("SMPI_SHARED_FREE twice", ["SR", "-np", "2", "BAD", "shared-double-free"], NZ,
     r"rank 1: double free: SMPI_SHARED_FREE\(0x[0-9a-f]+\) of a block already freed by "
     r"rank 1 \(1048576 bytes, allocated at .*bad.c:\d+\)"),
    ("MPI_Abort with a code", ["SR", "-np", "2", "BAD", "mpi-abort"], 42,
     r"MPI_Abort called by rank 1 .*error code 42"),
    # exit() between MPI_Init and MPI_Finalize while others are in MPI ends the job: said, with
    # who was left waiting, and never status 0 (after MPI_Finalize it ends the rank only:
    # tests/porting/rank_exit.c)
    # (where a rank is depends on measured CPU bursts: waiting, still sending, or in MPI_Init)
    ("exit with a code", ["SR", "-np", "2", "BAD", "exit3"], 3,
     r"rank 1 called exit\(3\) at simulated time .*its last MPI call: MPI_Comm_size at "
     r".*bad\.c:\d+.*1 rank still in MPI is left waiting:\n  rank 0 (waits in|is in|had not returned from) MPI_"),
    ("exit(0) while others wait", ["SR", "-np", "3", "BAD", "exit0"], 1,
     r"rank 1 called exit\(0\)(.*\n)*  rank 2 (waits in|is in|had not returned from) MPI_"),
    ("no MPI_Finalize", ["SR", "-np", "2", "BAD", "no-finalize"], 0,
     r"rank 0 returned from main without calling MPI_Finalize"),
    ("request never completed", ["SR", "-np", "2", "BAD", "leak-request"], 0,
     r"rank 0 reached MPI_Finalize with a receive still posted: MPI_Irecv"),
    ("ERRORS_ARE_FATAL: bad count", ["SR", "-np", "2", "BAD", "fatal-count"], NZ,
     r"MPI_Send on MPI_COMM_WORLD: MPI_ERR_COUNT.*count -1\)" +
     at_line("MPI_Send(&x, -1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);")),
    ("ERRORS_ARE_FATAL: bad rank", ["SR", "-np", "2", "BAD", "fatal-rank"], NZ,
     r"MPI_Send .*MPI_ERR_RANK.*destination 99.*\)" +
     at_line("MPI_Send(&x, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);")),
    ("ERRORS_ARE_FATAL: null communicator", ["SR", "-np", "2", "BAD", "fatal-comm"], NZ,
     r"rank \d: MPI_Send: MPI_ERR_COMM: invalid communicator \(MPI_COMM_NULL\)" +
     at_line("MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_NULL);")),
    ("ERRORS_ARE_FATAL: freed communicator", ["SR", "-np", "2", "BAD", "fatal-freed-comm"], NZ,
     r"rank \d: MPI_Send: MPI_ERR_COMM: invalid communicator \(handle 0x[0-9a-f]+, freed\)" +
     at_line("MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, stale);")),
    ("bad communicator: MPI_COMM_WORLD's handler", ["SR", "-np", "2", "BAD",
                                                   "bad-comm-handler"], 0,
     r"handler calls 2 on MPI_COMM_WORLD\n(.*\n)*bad: OK"),
    ("ERRORS_ARE_FATAL: uncommitted type", ["SR", "-np", "2", "BAD", "fatal-type"], NZ,
     r"MPI_Send .*MPI_ERR_TYPE.*not committed.*\)" +
     at_line("MPI_Send(&x, 1, t, 1 - rank, 0, MPI_COMM_WORLD);")),
    ("ERRORS_RETURN: codes come back", ["SR", "-np", "2", "BAD", "errors-return"], 0,
     r"bad: OK"),
    ("user error handler: called", ["SR", "-np", "2", "BAD", "user-handler"], 0,
     r"handler calls 3\n(.*\n)*bad: OK"),
    ("errors-are-fatal:no makes calls return", ["SR", "-np", "2",
                                                "--cfg=smpi/errors-are-fatal:no", "BAD",
                                                "errors-return"], 0, r"bad: OK"),
    ("MPI call before MPI_Init", ["SR", "-np", "2", "BAD", "before-init"], NZ,
     r"called MPI_Send before MPI_Init"),
    ("MPI_Init twice", ["SR", "-np", "2", "BAD", "double-init"], NZ, r"called MPI_Init twice"),
    ("window over NULL", ["SR", "-np", "2", "BAD", "win-null-base"], NZ,
     r"MPI_Win_create .*MPI_ERR_ARG.*NULL base for a window of 8 bytes"),
    ("Buffer_detach of a message never received", ["SR", "-np", "2", "BAD", "bsend-detach"], NZ,
     r"deadlock(.*\n)*.*rank 0 .*MPI_Buffer_detach, waiting for buffered messages"),
    # MPI from a pthread of the program: 2 ranks used to succeed by chance, 3 to assert
    ("MPI from a program's thread, 2 ranks", ["SR", "-np", "2", "BAD", "thread-send"], NZ,
     r"thread: main 0, level 1\n(.*\n)*smpi: MPI_Isend called from a thread the simulator does "
     r"not run.*asked for MPI_THREAD_MULTIPLE in MPI_Init_thread, smpi provided "
     r"MPI_THREAD_FUNNELED"),
    ("MPI from a program's thread, 3 ranks", ["SR", "-np", "3", "BAD", "thread-send"], NZ,
     r"smpi: MPI_Isend called from a thread the simulator does not run"),
    # --- smpi-calibrate (SKaMPI input) ---
    ("skampi truncated inside a block", ["CAL", "{trunc_block.sko}"], NZ,
     r"trunc_block.sko:\d+: end of file inside result block"),
    ("skampi truncated inside a line", ["CAL", "{trunc_line.sko}"], NZ,
     r"trunc_line.sko:\d+: truncated data line"),
    ("skampi missing file", ["CAL", "{dir}/none.sko"], NZ, r"none.sko: cannot open: No such file"),
    ("skampi unreadable (a directory)", ["CAL", "{dir}"], NZ, r"cannot read: Is a directory"),
    ("skampi empty file", ["CAL", "{empty.sko}"], NZ, r"no result block matches"),
    ("skampi no input", ["CAL"], NZ, r"no input file"),
    ("skampi bad option value", ["CAL", "--segments=0", "{good.sko}"], NZ,
     r"--segments=0: an integer >= 1 is expected"),
    # the default closed-loop fit needs two runs (issue 26): one gives no noise floor
    ("skampi one run only", ["CAL", "{good.sko}"], NZ,
     r"good.sko: one run only: the closed-loop fit needs two runs or more.*--open-loop fits a "
     r"single run"),
    ("skampi no ping-pong block", ["CAL", "{good.sko}", "{collectives.sko}"], NZ,
     r'collectives.sko: no result block matches "Pingpong_Send_Recv"; blocks present: "Bcast" '
     r"\(the fit needs SKaMPI's point-to-point ping-pong blocks"),
    ("skampi the same run twice", ["CAL", "{good.sko}", "{good.sko}"], NZ,
     r"good.sko holds the same measurements as \S*good.sko: the same run given twice"),
    ("skampi legacy option without --open-loop", ["CAL", "-k", "2", "{good.sko}", "{good.sko}"],
     NZ, r"--segments is an option of the legacy open-loop fit: add --open-loop"),
]

# signs that the simulator itself broke, whatever the case
SELF_CRASH = re.compile(r"invariant|ASSERT|BUG:|AddressSanitizer|runtime error:|"
                        r"LeakSanitizer|internal error", re.I)
MISLEADING = re.compile(r"bad: OK|smpi: simulated time|Simulated time")


def expand(argv, tools, paths):
    out = []
    for a in argv:
        if a in tools:
            out.append(tools[a])
            continue
        a = a.replace("@DATA@", paths["@DATA@"])
        out.append(re.sub(r"\{([^}]+)\}", lambda m: paths[m.group(1)], a))
    return out


# cases whose smpirun must stay small (maximum resident set, KiB): run through a wrapper
# that prints its child's getrusage maximum
MAX_RSS_KIB = {"np far beyond memory": 65536}
RSS_WRAPPER = ("import resource, subprocess, sys\n"
               "rc = subprocess.run(sys.argv[1:]).returncode\n"
               "ru = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
               "print('maxrss %d KiB' % ru.ru_maxrss, file=sys.stderr)\n"
               "sys.exit(rc if rc >= 0 else 128 - rc)\n")


def run_case(cmd, limit, cwd):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=limit)
        return p.returncode, out.decode(errors="replace"), time.monotonic() - t0, False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return None, out.decode(errors="replace"), time.monotonic() - t0, True


def main():
    args = sys.argv[1:]
    limit, verbose, only = 5.0, False, None
    pos = []
    i = 0
    while i < len(args):
        if args[i] == "--timeout":
            limit = float(args[i + 1])
            i += 2
        elif args[i] == "-v":
            verbose = True
            i += 1
        elif args[i] == "-k":
            only = args[i + 1]
            i += 2
        else:
            pos.append(args[i])
            i += 1
    if len(pos) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    smpirun, badprog, datadir = (os.path.abspath(p) for p in pos[:3])
    calibrate = os.path.abspath(pos[3]) if len(pos) > 3 and pos[3] else None
    tools = {"SR": smpirun, "BAD": badprog, "CAL": calibrate}

    failed, ran, skipped = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="badinput.") as d:
        files = dict(FILES)
        files.update(skampi_truncations(datadir))
        paths = {"dir": d, "@DATA@": datadir}
        for name, text in files.items():
            path = os.path.join(d, name)
            with open(path, "w") as f:
                f.write(text)
            paths[name] = path
        paths["fifo"] = os.path.join(d, "fifo")
        os.mkfifo(paths["fifo"])
        for name, argv, want, regex in CASES:
            if only and only not in name:
                continue
            if "CAL" in argv and not calibrate:
                skipped += 1
                continue
            ran += 1
            cmd = expand(argv, tools, paths)
            if name in MAX_RSS_KIB:
                cmd = [sys.executable, "-c", RSS_WRAPPER] + cmd
            rc, out, secs, hung = run_case(cmd, limit, d)
            problems = []
            if name in MAX_RSS_KIB and not hung:
                m = re.search(r"maxrss (\d+) KiB", out)
                if not m or int(m.group(1)) > MAX_RSS_KIB[name]:
                    problems.append("maximum resident set %s KiB, at most %d expected"
                                    % (m.group(1) if m else "unknown", MAX_RSS_KIB[name]))
            if hung:
                problems.append("did not end within %g s (killed)" % limit)
            elif rc < 0 and rc != want:
                problems.append("the simulator itself died of signal %d" % -rc)
            elif want == NZ and rc == 0:
                problems.append("exit status 0, a failure was expected")
            elif want != NZ and rc != want:
                problems.append("exit status %d, %d expected" % (rc, want))
            if not re.search(regex, out):
                problems.append("output does not match /%s/" % regex)
            if SELF_CRASH.search(out):
                problems.append("the simulator reports an internal failure")
            if want != 0 and MISLEADING.search(out):
                problems.append("a failing run printed a result (%s)"
                                % MISLEADING.search(out).group(0))
            if problems or verbose:
                print("%s %-40s rc=%s %.2fs  $ %s" % ("FAIL" if problems else "ok  ", name, rc,
                                                    secs, " ".join(cmd)), file=sys.stderr)
                for pr in problems:
                    print("    " + pr, file=sys.stderr)
                for line in out.strip().splitlines()[:8]:
                    print("    | " + line, file=sys.stderr)
            if problems:
                failed.append(name)
    print("badinput: %d cases, %d passed, %d failed%s" % (
        ran, ran - len(failed), len(failed),
        ", %d skipped (no smpi-calibrate)" % skipped if skipped else ""))
    if failed:
        print("badinput: failed: " + "; ".join(failed))
        return 1
    print("badinput: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
