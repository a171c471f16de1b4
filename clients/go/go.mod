// The Go client: `bash clients/generate.sh` writes adas/v1; a module build
// resolves google.golang.org/grpc, protobuf and genproto with `go mod tidy`
// (CI compiles it offline against Debian's copies, in GOPATH mode).
module adas.dev/go

go 1.19
