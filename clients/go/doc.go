// Package adas is the Go client of the ADAS gRPC API: the generated
// messages and clients of adas.v1 are in adas.dev/go/adas/v1 (package
// adasv1), made by clients/generate.sh from proto/. Errors carry
// google.rpc details: read them with google.golang.org/grpc/status and
// google.golang.org/genproto/googleapis/rpc/errdetails.
package adas
