package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
)

// The README's examples are what a newcomer types first: every line of its
// ```sh blocks runs here against the built binary, in order, in one scratch
// folder (so a plot finds the outdir an earlier line wrote), and must exit 0.
// A ``` block right after a one-command ```sh block is the start of that
// command's stdout, line by line ("..." skips lines), so the output shown
// cannot drift from what the binary prints.

// readmeSkip lists the only README lines the test does not run, and why.
var readmeSkip = map[string]string{
	"go run ./cmd/akisim -config frontier-node.toml": ".ci/run runs it (with -check) and checks its three matrices",
	"go test -short ./...":                           "the test suite this test belongs to",
}

// readmeMaxLines is the README's hard limit: past it, reference material
// belongs in docs/.
const readmeMaxLines = 300

// readmeFolders are the repository's folders the examples read.
var readmeFolders = []string{"traces", "profile", "workloads"}

// readmeExample is one ```sh block and the output shown after it, if any.
type readmeExample struct {
	line     int      // README line of the block's first command
	commands []string // the block's command lines
	want     []string // the output block after it, nil if none
}

// readmeExamples reads README.md's ```sh blocks.
func readmeExamples(t *testing.T, text string) []readmeExample {
	t.Helper()
	lines := strings.Split(text, "\n")
	var out []readmeExample
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```sh" {
			continue
		}
		ex := readmeExample{line: i + 2}
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			if c := strings.TrimSpace(lines[i]); c != "" && !strings.HasPrefix(c, "#") {
				ex.commands = append(ex.commands, c)
			}
		}
		if i == len(lines) {
			t.Fatalf("README.md:%d: a ```sh block that does not end", ex.line-1)
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j < len(lines) && lines[j] == "```" {
			if len(ex.commands) != 1 {
				t.Fatalf("README.md:%d: output shown after a block of %d commands: show it after one", j+1, len(ex.commands))
			}
			ex.want = []string{}
			for j++; j < len(lines) && lines[j] != "```"; j++ {
				ex.want = append(ex.want, lines[j])
			}
			i = j
		}
		out = append(out, ex)
	}
	return out
}

// skipEntry is the readmeSkip entry a README line matches (the line, or
// the line and a comment), or "".
func skipEntry(command string) string {
	for prefix := range readmeSkip {
		if command == prefix || strings.HasPrefix(command, prefix+" ") {
			return prefix
		}
	}
	return ""
}

// outputStarts says whether got begins with want's lines, "..." skipping
// any number of lines; trailing spaces do not count. It returns the first
// wanted line that was not found.
func outputStarts(got string, want []string) (string, bool) {
	lines := strings.Split(got, "\n")
	k := 0
	skip := false
	for _, w := range want {
		w = strings.TrimRight(w, " ")
		if w == "..." {
			skip = true
			continue
		}
		for skip && k < len(lines) && strings.TrimRight(lines[k], " ") != w {
			k++
		}
		if k == len(lines) || strings.TrimRight(lines[k], " ") != w {
			return w, false
		}
		k++
		skip = false
	}
	return "", true
}

func TestREADMEExamples(t *testing.T) {
	text, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(text), "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, at most %d: move reference material to docs/", n, readmeMaxLines)
	}
	examples := readmeExamples(t, string(text))
	if len(examples) < 10 {
		t.Fatalf("README.md has %d ```sh blocks: the tour lost its examples, or their fences", len(examples))
	}
	dir := t.TempDir()
	for _, f := range readmeFolders {
		abs, err := filepath.Abs(filepath.Join("../..", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Dir(binary(t)) + string(os.PathListSeparator) + os.Getenv("PATH")
	skipped := map[string]bool{}
	for _, ex := range examples {
		for k, c := range ex.commands {
			if e := skipEntry(c); e != "" {
				t.Logf("README.md:%d: not run (%s): %s", ex.line+k, readmeSkip[e], c)
				skipped[e] = true
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", c)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+path)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			err := cmd.Run()
			cancel()
			t.Logf("README.md:%d: %.1fs: %s", ex.line+k, time.Since(start).Seconds(), c)
			if err != nil {
				t.Errorf("README.md:%d: %s: %v\n%s", ex.line+k, c, err, stderr.String())
				continue
			}
			if ex.want != nil {
				if missing, ok := outputStarts(stdout.String(), ex.want); !ok {
					t.Errorf("README.md:%d: %s: the output shown is not what it prints (from %q on); it prints:\n%s", ex.line+k, c, missing, stdout.String())
				}
			}
		}
	}
	for c := range readmeSkip {
		if !skipped[c] {
			t.Errorf("readmeSkip lists %q, which README.md no longer shows", c)
		}
	}
	// every example writes under out/, which .gitignore keeps out of git
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != readmeOut && !slices.Contains(readmeFolders, e.Name()) {
			t.Errorf("README.md's examples wrote %s in the repository's root: write under %s/", e.Name(), readmeOut)
		}
	}
	if ignore, err := os.ReadFile("../../.gitignore"); err != nil || !strings.Contains(string(ignore), "/"+readmeOut+"/") {
		t.Errorf(".gitignore does not ignore /%s/ (%v)", readmeOut, err)
	}
}

// readmeOut is the one folder the README's examples write under.
const readmeOut = "out"

func TestOutputStarts(t *testing.T) {
	got := "a\nb  \nc\nd\n"
	for _, c := range []struct {
		want []string
		ok   bool
	}{
		{[]string{"a", "b"}, true},
		{[]string{"a", "...", "d"}, true},
		{[]string{"...", "c"}, true},
		{[]string{"b"}, false},
		{[]string{"a", "c"}, false},
		{[]string{"a", "...", "x"}, false},
	} {
		if _, ok := outputStarts(got, c.want); ok != c.ok {
			t.Errorf("outputStarts(%q, %q) = %v, want %v", got, c.want, ok, c.ok)
		}
	}
}

// readmeDocs are the files a reader follows links through.
func readmeDocs(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	model, err := filepath.Glob("../../docs/model/*.md")
	if err != nil {
		t.Fatal(err)
	}
	traces, err := filepath.Glob("../../traces/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append(append(append([]string{"../../README.md"}, traces...), docs...), model...)
}

// prose is a Markdown file's text outside its fenced blocks.
func prose(text string) string {
	var b strings.Builder
	fenced := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// A doc page is one topic a newcomer reads through: about 400 lines at
// most (the README has its own bound, readmeMaxLines).
func TestDocPagesAreShort(t *testing.T) {
	const most = 420
	for _, f := range readmeDocs(t) {
		if filepath.Base(f) == "README.md" && filepath.Base(filepath.Dir(f)) == ".." {
			continue
		}
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(text), "\n"); n > most {
			t.Errorf("%s has %d lines, at most about 400 (%d): split it by topic", f, n, most)
		}
	}
}

// Docs say what is: no issue numbers or session history (git log has it).
func TestDocsCarryNoHistory(t *testing.T) {
	history := regexp.MustCompile(`(?i)\bissues? [0-9]+|\bissue[0-9]|(^|[\s(])#[0-9]+\b|\bsessions?\b|\bcycle-approximate\b`)
	for _, f := range readmeDocs(t) {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(prose(string(text)), "\n") {
			if m := history.FindString(l); m != "" {
				t.Errorf("%s: %q: %s", filepath.Base(f), m, l)
			}
		}
	}
}

// Every relative link of the docs reaches a file, and a #section of a
// Markdown file one of its headings (GitHub's anchors).
func TestDocLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchors := func(file string) map[string]bool {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		_, out := pageHeadings(string(text))
		return out
	}
	for _, f := range readmeDocs(t) {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(prose(string(text)), -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.Join(filepath.Dir(f), path)
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s: link %s: no such file", filepath.Base(f), target)
				continue
			}
			if anchor != "" && strings.HasSuffix(file, ".md") && !anchors(file)[anchor] {
				t.Errorf("%s: link %s: no such section", filepath.Base(f), target)
			}
		}
	}
}

// The README's Go version is go.mod's, and docs/development.md names every
// module go.mod requires directly.
func TestDocsFollowGoMod(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	dev, err := os.ReadFile("../../docs/development.md")
	if err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if version == nil {
		t.Fatal("go.mod has no go line")
	}
	if want := "Go " + string(version[1]) + " or newer"; !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not say %q (go.mod's go line)", want)
	}
	direct := regexp.MustCompile(`(?m)^\s+(\S+) v\S+$`)
	for _, m := range direct.FindAllStringSubmatch(string(mod), -1) {
		if strings.Contains(m[0], "// indirect") {
			continue
		}
		if !strings.Contains(string(dev), m[1]) {
			t.Errorf("docs/development.md does not name %s, which go.mod requires", m[1])
		}
	}
}

// A reference to a model page names the page and, often, a section:
// `docs/model/rccl.md, Known gaps` in a gap text, `docs/model/gcd.md
// "Translation"` in a comment, `[gcd.md](model/gcd.md#translation)` in the
// docs. modelRef finds them: the page, then an anchor, a quoted section
// (\" inside a Go string) or, after a comma, a section up to ")" or the
// string's end.
var modelRef = regexp.MustCompile(`(?:docs/)?model/([A-Za-z0-9-]+)\.md(?:#([a-z0-9-]+))?\)?(?:(?:,\s*|\s+)\\?"([^"\\\n]+)\\?"|,\s*([A-Za-z0-9][^"()\\\n;]*?)\s*(?:\)|\\?"))?`)

// modelRefFile is this file: its examples would match modelRef.
const modelRefFile = "cmd/akisim/readme_test.go"

// docRef is one reference: where it is, the page, and the section it names
// (a heading's text or its anchor), "" for the page alone.
type docRef struct {
	where, page, section string
	anchor               bool
}

// modelRefs lists the references in text.
func modelRefs(where, text string) []docRef {
	var out []docRef
	for _, m := range modelRef.FindAllStringSubmatch(text, -1) {
		r := docRef{where: where, page: m[1]}
		switch {
		case m[2] != "":
			r.section, r.anchor = m[2], true
		case m[3] != "":
			r.section = m[3]
		case m[4] != "":
			r.section = m[4]
		}
		out = append(out, r)
	}
	return out
}

// headingAnchor is GitHub's anchor of a heading.
func headingAnchor(h string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == ' ':
			return '-'
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			return unicode.ToLower(r)
		}
		return -1
	}, h)
}

// pageHeadings are a Markdown page's headings and their anchors.
func pageHeadings(text string) (names, anchors map[string]bool) {
	names, anchors = map[string]bool{}, map[string]bool{}
	heading := regexp.MustCompile(`(?m)^#+ (.*)$`)
	for _, h := range heading.FindAllStringSubmatch(prose(text), -1) {
		t := strings.TrimSpace(h[1])
		names[t] = true
		anchors[headingAnchor(t)] = true
	}
	return names, anchors
}

// checkRefs reports each reference whose page is not in pages or whose
// section is not one of its page's headings.
func checkRefs(refs []docRef, pages map[string]string) []string {
	var bad []string
	for _, r := range refs {
		text, ok := pages[r.page]
		if !ok {
			bad = append(bad, r.where+": docs/model/"+r.page+".md: no such page")
			continue
		}
		if r.section == "" {
			continue
		}
		names, anchors := pageHeadings(text)
		if r.anchor && !anchors[r.section] || !r.anchor && !names[r.section] {
			bad = append(bad, r.where+": docs/model/"+r.page+".md has no section "+`"`+r.section+`"`)
		}
	}
	return bad
}

// modelPages reads docs/model/*.md by page name.
func modelPages(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../../docs/model/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("docs/model/ has no pages")
	}
	pages := map[string]string{}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pages[strings.TrimSuffix(filepath.Base(f), ".md")] = string(text)
	}
	return pages
}

// Every reference to a model page in the code (string literals, comments),
// the configs and the docs names a page that exists and, where it names a
// section, one of that page's headings. docs/model.md is gone: nothing
// points at it.
func TestDocsModelReferences(t *testing.T) {
	pages := modelPages(t)
	var refs []docRef
	n := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		rel, _ := filepath.Rel("../..", path)
		if ext != ".go" && ext != ".md" && ext != ".toml" || filepath.ToSlash(rel) == modelRefFile {
			return nil
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, l := range strings.Split(string(text), "\n") {
			where := rel + ":" + strconv.Itoa(i+1)
			if strings.Contains(l, "docs/model.md") {
				t.Errorf("%s: cites docs/model.md, which the pages under docs/model/ replace", where)
			}
			found := modelRefs(where, l)
			n += len(found)
			refs = append(refs, found...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d references to docs/model/ pages", n)
	if n < 50 {
		t.Errorf("found %d references to docs/model/ pages: the pattern no longer sees them", n)
	}
	for _, b := range checkRefs(refs, pages) {
		t.Error(b)
	}
}

// The check sees each form of reference and rejects a page or section that
// is not there.
func TestDocsModelReferencesCheck(t *testing.T) {
	pages := map[string]string{"gcd": "# GCD\n\n## Translation\n\n```\n## Not a heading\n```\n"}
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{`Gap: "... (docs/model/gcd.md, Translation)"`, true},
		{`Band{1, 2, "docs/model/gcd.md, Translation"}`, true},
		{`// (docs/model/gcd.md "Translation")`, true},
		{`"... (docs/model/gcd.md \"Translation\")"`, true},
		{`[gcd.md](model/gcd.md#translation)`, true},
		{`[gcd.md](model/gcd.md) "GCD"`, true},
		{`see docs/model/gcd.md.`, true},
		{`Gap: "... (docs/model/gcd.md, Routes)"`, false},
		{`// (docs/model/gcd.md "Not a heading")`, false},
		{`[gcd.md](model/gcd.md#routes)`, false},
		{`docs/model/sdma.md`, false},
	} {
		refs := modelRefs("x", c.text)
		if len(refs) != 1 {
			t.Errorf("%s: %d references, want 1", c.text, len(refs))
			continue
		}
		if bad := checkRefs(refs, pages); (len(bad) == 0) != c.ok {
			t.Errorf("%s: %v, want ok %v", c.text, bad, c.ok)
		}
	}
}
