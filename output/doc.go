// Package output writes what a command writes, and checks where first.
// An outdir is written whole: into a temporary folder, renamed into place
// (outdir.go). Every other file is written beside its place and renamed
// into it, or written in place when it is a device or a FIFO (file.go).
// Before anything runs, Check refuses an output that would overwrite an
// input or another output (paths.go).
package output
