module github.com/akisim/akisim

go 1.24

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/sarchlab/akita/v3 v3.1.0
	github.com/tebeka/atexit v0.3.0
)

require github.com/rs/xid v1.5.0 // indirect
