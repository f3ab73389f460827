// Command compose-config loads a compose file as `docker compose config` does, with the loader
// Docker Compose itself calls (compose-go's ProjectOptions.LoadProject: variables interpolated from
// the environment, the Compose Specification's schema, normalisation, then the consistency checks
// such as a dependency on an unknown service), and prints the project as JSON. A file the loader
// refuses exits 1 with its message. scripts/infra/install-compose.sh says why not Compose itself.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: compose-config COMPOSE_FILE")
		os.Exit(2)
	}
	options, err := cli.NewProjectOptions([]string{os.Args[1]},
		cli.WithOsEnv,
		cli.WithDotEnv,
		cli.WithInterpolation(true),
		cli.WithResolvedPaths(true),
		cli.WithNormalization(true),
		cli.WithConsistency(true),
	)
	if err != nil {
		fail(err)
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		fail(err)
	}
	model, err := project.MarshalJSON()
	if err != nil {
		fail(err)
	}
	fmt.Println(string(model))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
