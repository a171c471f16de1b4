// The Go client: adas/v1 is written by `bash clients/generate.sh` and
// committed (clients/check-generated.sh keeps it current); a module build
// resolves google.golang.org/grpc, protobuf and genproto with `go mod tidy`
// (CI compiles it offline against Debian's copies, in GOPATH mode).
module adas.dev/go

go 1.19
