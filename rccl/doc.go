// Package rccl computes what RCCL builds for a communicator on one node:
// its rings, the channels that run them, and the lines NCCL_DEBUG=INFO
// prints for them.
//
// # Rings
//
// A ring is a directed cycle through every rank of the communicator; rank i
// sends to the next rank over the xGMI link between their GCDs. Like RCCL's
// search (ncclTopoCompute, src/graph/search.cc), Rings packs rings into the
// link graph: every ring takes a speed s on every directed link it crosses,
// and a link carries at most lanes / s rings in each direction. It looks
// for the speed and the set of rings with the highest aggregate bandwidth
// (rings x s, RCCL's nChannels x bwIntra):
//
//   - Speeds, in links: every lanes / k of the links in use (the speeds at
//     which the rings a link carries change, so no speed in between does
//     better), up to 4/3 of a link: RCCL's fastest intra-node speed on AMD
//     GPUs, 48 GB/s, over the 36 GB/s it counts per gfx90a link
//     (MI200_XGMI_WIDTH). Rings depend on lane counts only; the per-lane
//     bandwidth just converts the speed to GB/s (Ring.GBps).
//   - From the fastest speed down, the most rings that fit are found by an
//     exhaustive depth-first search (rings in lexicographic order of ranks,
//     each ring no smaller than the one before it, pruned by the rings each
//     rank's links can still carry). A speed is kept only if it beats the
//     aggregate of every faster one; as in RCCL, lowering stops at 0.49 of
//     the best speed found.
//   - Ties at one speed go to the fewest links crossed (RCCL's nHops), then
//     to the most distinct directed links used (spreading the rings), then
//     to the set that comes first in lexicographic order.
//   - Hops use direct links only. If no ring can, RCCL would go through the
//     host (PCIe and CPU, its SYS paths); here a hop between GCDs without a
//     link goes through other GCDs along the node's default kernel route
//     (fewest hops, then widest, then the lowest-numbered GCDs), rings take
//     as few such hops as any ring needs, and the speed is charged on every
//     link of the route.
//   - The rings are returned from rank 0, each followed by its reverse when
//     that is one of them, so that consecutive channels load both
//     directions of a link.
//
// On the Frontier node this gives RCCL's own rings (its node model 73),
// 0 1 3 2 4 5 7 6, 6 7 5 4 2 3 1 0, 0 1 5 4 6 7 3 2 and 2 3 7 6 4 5 1 0, in
// that order (each listed from rank 0), at one link each: of the two sets of
// four rings that fit, RCCL's is the one that uses all 24 directed links.
// Another node gets rings that follow its links. The search is exhaustive
// on 8 GCDs (well under a millisecond); on up to MaxGCDs it stops after a
// fixed number of steps per speed, as RCCL's search times out, and keeps
// the best rings found by then.
//
// # Nodes of 8 GPUs all to all
//
// Eight GCDs, four on each of two NUMA domains, every two joined by the
// same number of links (the 8-MI300X platform), take RCCL's stored model
// 79 instead of a search (parseA2a8P): its 14 rings, listed twice, each
// directed link under 4 of the 28.
//
// # Not reproduced
//
// RCCL matches the whole Frontier node against a stored table (rome_models.cc)
// and searches only for other sets of GPUs; this package always searches
// (the table's own rings come out), keeping only the table's consequences:
// unmatched sets of more than 4 GCDs get at most two rings (Rome 4P2H),
// and after a search, not a match, rings of at least 25 GB/s in RCCL's
// units run twice at half the speed (ncclTopoDupChannels). RCCL's
// fixed list of speeds, the order in which it tries GPUs, its preference for
// repeating the first ring (sameChannels), its time-outs, NICs, trees and
// several nodes are not modelled, and neither is the bandwidth of its
// host paths. Where a table match sets RCCL's per-ring bandwidth to the
// GPU's total over the rings, Ring.GBps is the search speed.
//
// # Channels
//
// Channels follows ncclTopoPostset (src/graph/connect.cc) and init.cc for
// one node: the rings are doubled, then repeated to the copies the GPU asks
// for (gfx90a: 4, within 32 channels, so 4 rings give 16; gfx942: 2 for 8
// ranks, within 128, so model 79's 28 rings give 56); NCCL_MAX_NCHANNELS
// keeps the first channels, and NCCL_MIN_NCHANNELS repeats them again up to
// its count.
package rccl
