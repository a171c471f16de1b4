package adas_test

import (
	"context"
	"time"

	adasv1 "adas.dev/go/adas/v1"
	"google.golang.org/grpc"
)

// Starts a job on a skill and reads it back: the smallest use of the client.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := grpc.DialContext(ctx, "127.0.0.1:50050", grpc.WithInsecure())
	if err != nil {
		return
	}
	defer conn.Close()
	jobs := adasv1.NewOrchestratorServiceClient(conn)
	job, err := jobs.StartJob(ctx, &adasv1.StartJobRequest{
		Skill: "skills/cs-tier-1",
		Goal:  "where is my order ORD-1",
	})
	if err != nil {
		return
	}
	_, _ = jobs.GetJob(ctx, &adasv1.GetJobRequest{Name: job.GetName()})
}
