#!/usr/bin/env bash
# --platform-set (src/platform_set.c): a run with an override gives the same simulated time,
# to the last digit, as the same run on a hand-edited copy of the platform file; bad
# overrides fail with a message naming the unknown element, attribute or id.
# Usage: platform_set.sh SMPIRUN RING SOURCE_ROOT
set -u
smpirun=$1 ring=$2 plat=$3/platforms/two_clusters_wan.xml
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fails=0
simtime() { "$smpirun" --cfg=smpi/display-timing:yes --cfg=smpi/simulate-computation:no "$@" 2>&1 |
  sed -n 's/^smpi: simulated time: \([^ ]*\) s.*/\1/p'; }
same() { # NAME EXPECTED GOT
  if [ -n "$2" ] && [ "$2" = "$3" ]; then echo "ok: $1 ($2 s)"; else echo "FAIL: $1: expected '$2', got '$3'"; fails=$((fails + 1)); fi
}
args=(-np 32 "$ring" 100000 3 1e6) # 32 ranks: both sites, the token crosses the WAN

# the WAN link 10x faster and half the latency; siteB's hosts 4x faster
sed -e 's/<link id="wan" bandwidth="1Gbps" latency="10ms"/<link id="wan" bandwidth="10Gbps" latency="5ms"/' \
    -e 's/speed="2Gf"/speed="8Gf"/' "$plat" > "$tmp/edited.xml"
cmp -s "$plat" "$tmp/edited.xml" && { echo "FAIL: sed did not edit the copy"; exit 1; }
base=$(simtime -platform "$plat" "${args[@]}")
want=$(simtime -platform "$tmp/edited.xml" "${args[@]}")
got=$(simtime -platform "$plat" --platform-set 'link[wan]/bandwidth=10Gbps' \
      --platform-set=link[wan]/latency=5ms --platform-set 'cluster[siteB]/speed=8Gf' "${args[@]}")
same "override = edited copy" "$want" "$got"
[ "$base" != "$got" ] || { echo "FAIL: the overrides changed nothing ($base)"; fails=$((fails + 1)); }
# no [ID]: every cluster; the last override of an attribute wins
sed 's/bw="10Gbps"/bw="1Gbps"/' "$plat" > "$tmp/all.xml"
same "cluster/bw = every cluster" "$(simtime -platform "$tmp/all.xml" "${args[@]}")" \
  "$(simtime -platform "$plat" --platform-set 'cluster/bw=5Gbps' --platform-set 'cluster[*]/bw=1Gbps' "${args[@]}")"
# cluster size and topology: a fat tree grown to 32 hosts, as an edited copy says
ft=$3/platforms/cluster_fat_tree.xml
sed -e 's/topo_parameters="2;4,4;1,2;1,2"/topo_parameters="2;8,4;1,2;1,2"/' -e 's/radical="0-15"/radical="0-31"/' \
  "$ft" > "$tmp/ft32.xml"
same "fat tree resized" "$(simtime -platform "$tmp/ft32.xml" -np 32 "$ring" 100000 3)" \
  "$(simtime -platform "$ft" --platform-set 'cluster[fattree]/radical=0-31' \
     --platform-set 'cluster[fattree]/topo_parameters=2;8,4;1,2;1,2' -np 32 "$ring" 100000 3)"
# the built-in platform has one cluster, "default"
same "built-in platform" "$(simtime -np 4 "$ring" 1000000 1)" \
  "$(simtime -np 4 --platform-set 'cluster[default]/bw=10Gbps' "$ring" 1000000 1)"
[ "$(simtime -np 4 "$ring" 1000000 1)" != "$(simtime -np 4 --platform-set 'cluster/bw=1Gbps' "$ring" 1000000 1)" ] ||
  { echo "FAIL: cluster/bw on the built-in platform changed nothing"; fails=$((fails + 1)); }

# errors: non-zero exit and a message naming the culprit
refuse() { # SPEC EXPECTED_TEXT
  local out rc
  out=$("$smpirun" -platform "$plat" --platform-set "$1" -np 2 "$ring" 2>&1); rc=$?
  if [ $rc -ne 0 ] && grep -qF -- "$2" <<<"$out"; then echo "ok: refused $1"
  else echo "FAIL: $1: exit $rc, expected a message with '$2', got: $out"; fails=$((fails + 1)); fi
}
refuse 'clustr[siteA]/bw=1Gbps' "unknown element 'clustr'"
refuse 'cluster[siteA]/bandwidth=1Gbps' "<cluster> has no attribute 'bandwidth' (its attributes: "
refuse 'cluster[siteC]/bw=1Gbps' 'no <cluster id="siteC"> (ids of its <cluster>: siteA, siteB)'
refuse 'host/speed=1Gf' "the file has no <host>"
refuse 'cluster[siteA]/bw=fast' "two_clusters_wan.xml:9: cluster 'siteA': 'fast' is not a valid bandwidth"
refuse 'cluster[siteA/bw=1' "expected ELEMENT[ID]/ATTRIBUTE=VALUE"
refuse 'cluster[siteA]/bw' "expected ELEMENT[ID]/ATTRIBUTE=VALUE"
echo "platform_set: $fails failure(s)"
[ $fails -eq 0 ]
