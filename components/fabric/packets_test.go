package fabric

import "testing"

func TestIdlePacketsKeepOnlyShortRangeLists(t *testing.T) {
	var ps Packets
	long := NewRequest(ReadReq, 64, Memory{}, nil, nil, nil)
	long.Extents = make([]Extent, 2, 4*keptExtents)
	long.Origin.Extents = make([]Extent, 0, 4*keptExtents)
	short := NewRequest(ReadReq, 64, Memory{}, nil, nil, nil)
	short.Extents = make([]Extent, 2, keptExtents)
	ps.Put(long)
	ps.Put(short)
	if p := ps.Request(WriteReq, 64, Memory{}, nil, nil, nil); p != short || cap(p.Extents) != keptExtents || len(p.Extents) != 0 {
		t.Errorf("the short list's packet came back with %d of %d ranges, want 0 of %d", len(p.Extents), cap(p.Extents), keptExtents)
	}
	if p := ps.Request(WriteReq, 64, Memory{}, nil, nil, nil); p != long || p.Extents != nil || p.Origin.Extents != nil {
		t.Errorf("an idle packet kept lists of %d and %d ranges", cap(p.Extents), cap(p.Origin.Extents))
	}
}
