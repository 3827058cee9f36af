package lineset

import "testing"

// Ranges within a word, across words and of whole words set, clear and
// count exactly the lines they name.
func TestAddDropCount(t *testing.T) {
	s := New(200)
	if len(s) != 4 {
		t.Fatalf("200 lines in %d words, want 4", len(s))
	}
	s.Add(3, 5)
	s.Add(60, 130)
	if got := s.Count(0, 200); got != 2+70 {
		t.Errorf("count %d, want 72", got)
	}
	if got := s.Count(64, 128); got != 64 {
		t.Errorf("a whole word: %d, want 64", got)
	}
	s.Drop(62, 66)
	if got, want := s.Count(0, 200), 72-4; got != want {
		t.Errorf("after dropping 4: %d, want %d", got, want)
	}
	if s.Count(62, 66) != 0 || s.Count(3, 4) != 1 || s.Count(5, 60) != 0 {
		t.Errorf("counts of single lines and gaps wrong: %v", s)
	}
}
