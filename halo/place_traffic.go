package halo

// RankTraffic is what one rank sends in one exchange of one field, by the
// level its messages cross.
type RankTraffic struct {
	Rank, GCD int
	Bytes     [NumLevels]int64
	Messages  [NumLevels]int
}

// Traffic is the arithmetic behind the paper's placement claim: for each
// rank, and in total and at the worst rank, the bytes per field sent to its
// own GCD, within its package, within its node and over the network. An
// exchange lasts as long as its slowest rank, so Max is the figure to
// compare across decompositions.
type Traffic struct {
	PerRank []RankTraffic
	Total   [NumLevels]int64
	Max     [NumLevels]int64
}

// ExchangeTraffic sums Messages(d, p, radius) by rank and level.
func ExchangeTraffic(d *Decomposition, p Placement, radius int) (Traffic, error) {
	msgs, err := Messages(d, p, radius)
	if err != nil {
		return Traffic{}, err
	}
	t := Traffic{PerRank: make([]RankTraffic, d.Procs())}
	for r := range t.PerRank {
		t.PerRank[r] = RankTraffic{Rank: r, GCD: p.GCD(r)}
	}
	for _, m := range msgs {
		rt := &t.PerRank[m.Src]
		rt.Bytes[m.Level] += m.Bytes
		rt.Messages[m.Level]++
		t.Total[m.Level] += m.Bytes
	}
	for _, rt := range t.PerRank {
		for l, b := range rt.Bytes {
			t.Max[l] = max(t.Max[l], b)
		}
	}
	return t, nil
}
