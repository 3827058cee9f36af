package trace

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"unicode/utf8"
)

// Write writes ops as a JSON Lines trace, one op per line, leaving out
// fields at their zero value (Line is never written). Parse reads the
// output back to the same ops, Line aside; op i is on line i+1, the line
// Check reports for a generated op; an empty, non-nil Access reads back
// as nil. Write does not Check the ops, but it refuses strings that are not
// valid UTF-8, which JSON cannot carry intact, and a compute_ns that is NaN
// or infinite, which JSON cannot carry at all.
func Write(w io.Writer, ops []Op) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := range ops {
		o := &ops[i]
		strs := []struct{ field, v string }{
			{"op", string(o.Op)}, {"buf", o.Buf}, {"src", o.Src}, {"dst", o.Dst},
			{"event", o.Event}, {"label", o.Label}, {"name", o.Name},
			{"wait_flag", o.WaitFlag}, {"set_flag", o.SetFlag}, {"flag", o.Flag},
			{"advice", o.Advice}, {"req", o.Req},
		}
		for j, a := range o.Access {
			p := fmt.Sprintf("access[%d].", j)
			strs = append(strs, []struct{ field, v string }{
				{p + "buf", a.Buf}, {p + "mode", a.Mode}, {p + "pattern", a.Pattern},
			}...)
		}
		for _, s := range strs {
			if !utf8.ValidString(s.v) {
				return fmt.Errorf("trace: write op %d: %s: invalid UTF-8", i+1, s.field)
			}
		}
		if math.IsNaN(o.ComputeNs) || math.IsInf(o.ComputeNs, 0) {
			return fmt.Errorf("trace: write op %d: compute_ns: %v is not a JSON number", i+1, o.ComputeNs)
		}
		if math.IsNaN(o.DurationNs) || math.IsInf(o.DurationNs, 0) {
			return fmt.Errorf("trace: write op %d: duration_ns: %v is not a JSON number", i+1, o.DurationNs)
		}
		if err := enc.Encode(o); err != nil { // Encode ends the line
			return fmt.Errorf("trace: write op %d: %w", i+1, err)
		}
	}
	return bw.Flush()
}
