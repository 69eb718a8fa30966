"""What runs the services on one machine: the embedded stores and Ray (`make run`), the
children kept running, and the cluster of several edges and Ray nodes (`make cluster`)."""
