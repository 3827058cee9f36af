package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// readAll reads every one of found (files or prefixes under path, none
// saying what was looked for if there are none) into one profile, in order.
func readAll(path string, found []string, err error, none string, read func(p *Profile, i int, f string) error) (*Profile, error) {
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("%s: no %s", path, none)
	}
	p := &Profile{Source: path}
	for i, f := range found {
		if err := read(p, i, f); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// findFiles lists the files under path (path itself if it is a file) that
// match, in name order.
func findFiles(path string, match func(string) bool) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	var fs []string
	err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && match(p) {
			fs = append(fs, p)
		}
		return err
	})
	slices.Sort(fs)
	return fs, err
}

// ReadRocprof reads rocprofv3's output at path: a *_results.db (rocpd), a
// *_results.json, a CSV file of it, or a folder holding them (rocpd, then
// JSON: only those have copy sizes, then CSV).
func ReadRocprof(path string) (*Profile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	switch {
	case !st.IsDir() && strings.HasSuffix(path, ".json"):
		return ReadRocprofJSON(path)
	case !st.IsDir() && strings.HasSuffix(path, ".csv"):
		return ReadRocprofCSV(path)
	case !st.IsDir() && strings.HasSuffix(path, ".db"):
		return ReadRocpd(path)
	case !st.IsDir():
		return nil, fmt.Errorf("%s: not rocprofv3 output (want *_results.db, *_results.json, a *.csv of it, or their folder)", path)
	}
	for _, pat := range []string{"*_results.db", filepath.Join("*", "*_results.db")} { // rocpd first, ROCm 7.0's default
		if m, _ := filepath.Glob(filepath.Join(path, pat)); len(m) > 0 {
			return ReadRocpd(path)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(path, "*_results.json")); len(m) > 0 {
		return ReadRocprofJSON(path)
	}
	if m, _ := filepath.Glob(filepath.Join(path, "*", "*_results.json")); len(m) > 0 {
		return ReadRocprofJSON(path)
	}
	return ReadRocprofCSV(path)
}
