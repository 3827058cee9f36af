package validate

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/configs"
)

// coveredConfigs are the shipped configs validate runs its points on:
// the node it is given by default, and the placed groups' own.
var coveredConfigs = []string{"frontier-node.toml", mi300xConfig, mi300aConfig}

// variedKeys are the keys validate's points set away from those configs'
// values: the software stack (onSeedStack, checkRun.value, hostMemPoints),
// XNACK and SDMA (managed, MPI without SDMA, MI300A), the ranks' visible
// GCDs, the node count, and the MI300 partition modes.
var variedKeys = []string{"stack.rocm", "stack.cray_mpich", "stack.rccl", "env.HSA_XNACK", "env.HSA_ENABLE_SDMA",
	"mpi.visible_gcds", "network.nodes", "gcd.compute_partition", "gcd.memory_partition"}

// unsimulatedKeys change what is printed, not what is simulated: the
// config's label, RCCL's INFO lines, TransferBench's CSV layout.
var unsimulatedKeys = []string{"name", "env.NCCL_DEBUG", "env.OUTPUT_TO_CSV"}

// Outside says how the resolved node c goes beyond what validate checks,
// in a line, or "" when it is one of the covered configs but for keys
// validate varies itself. c is compared with the covered config it is
// closest to, key by key; a bundle's keys count once each.
func Outside(c *config.Node) (string, error) {
	values, err := c.Values()
	if err != nil {
		return "", err
	}
	best, bestFile := []string(nil), ""
	for _, file := range coveredConfigs {
		n, err := builtinNode(file)
		if err != nil {
			return "", err
		}
		base, err := n.Values()
		if err != nil {
			return "", err
		}
		keys := differing(base, values)
		if bestFile == "" || len(keys) < len(best) {
			best, bestFile = keys, file
		}
	}
	if len(best) == 0 {
		return "", nil
	}
	what, verb, them := best[0]+" and "+strconv.Itoa(len(best)-1)+" more keys", "differ", "them"
	if len(best) == 1 {
		what, verb, them = "the key "+best[0], "differs", "it"
	}
	return fmt.Sprintf("outside what akisim validate checks: %s %s from %s, and no validate point sets %s", what, verb, bestFile, them), nil
}

// builtinNode is the config built into the binary, its bases built in too
// (a frontier-node.toml in the working folder is another config).
func builtinNode(file string) (*config.Node, error) {
	data, err := configs.FS.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("validate: %s: %w", file, err)
	}
	src, err := config.NewSource("embedded:"+file, data, configs.FS)
	if err != nil {
		return nil, err
	}
	return src.Node(nil)
}

// differing lists the keys of b whose values are not a's, and a's keys b
// lacks, leaving out the keys validate varies and those that simulate
// nothing.
func differing(a, b []config.KeyValue) []string {
	av := map[string]string{}
	for _, kv := range a {
		av[kv.Key] = kv.Value
	}
	skip := func(key string) bool {
		return slices.Contains(variedKeys, key) || slices.Contains(unsimulatedKeys, key)
	}
	var keys []string
	seen := map[string]bool{}
	for _, kv := range b {
		seen[kv.Key] = true
		if v, ok := av[kv.Key]; (!ok || v != kv.Value) && !skip(kv.Key) {
			keys = append(keys, kv.Key)
		}
	}
	for _, kv := range a {
		if !seen[kv.Key] && !skip(kv.Key) {
			keys = append(keys, kv.Key)
		}
	}
	return keys
}
