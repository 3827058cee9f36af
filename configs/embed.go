// Package configs holds the node configs shipped with akisim. They are
// built into the binary, so `akisim -config frontier-node.toml` works from
// any folder after `go install`.
package configs

import "embed"

// FS holds every *.toml file of this folder.
//
//go:embed *.toml
var FS embed.FS
