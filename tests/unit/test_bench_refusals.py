"""The bench refuses to run without its socket generator rather than print empty figures."""

from loadtest import bench, node_crowd


def test_the_bench_refuses_to_run_without_the_node_crowd(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(node_crowd, "NODE_DIR", tmp_path)  # a crowd with nothing installed
    started = []
    monkeypatch.setattr(bench, "run_scenario", lambda *args, **kwargs: started.append(args))

    assert bench.main(["idle"]) == 2

    assert started == []
    assert "the Node load generator is not installed" in capsys.readouterr().out
