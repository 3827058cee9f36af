package report

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable is s with every character a terminal would act on rather than
// show (control characters, ESC and so escape sequences, other
// non-printing runes, bytes that are not UTF-8) written as its Go escape:
// a trace label "\x1b[2J" prints as those eight characters, not as a
// cleared screen. Printable text is returned as it is.
func Printable(s string) string { return printable(s, "") }

// PrintableText is Printable for a whole text output: its newlines and
// tabs are kept.
func PrintableText(s string) string { return printable(s, "\n\t") }

func printable(s, keep string) string {
	ok := func(r rune, size int) bool {
		return r != utf8.RuneError && unicode.IsPrint(r) || size == 1 && strings.ContainsRune(keep, r)
	}
	clean := true
	for i := 0; i < len(s) && clean; {
		r, size := utf8.DecodeRuneInString(s[i:])
		clean = ok(r, size) || r == utf8.RuneError && size == 3 // U+FFFD itself prints
		i += size
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case ok(r, size) || r == utf8.RuneError && size == 3:
			b.WriteString(s[i : i+size])
		case r == utf8.RuneError:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i]), 16))
		default:
			q := strconv.QuoteRuneToASCII(r) // '\x1b', '\u200b'
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}
