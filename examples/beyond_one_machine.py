"""refml_fast on a Dask cluster: learn a stream larger than the workers' memory, predict
block by block, and spread a grid search over the workers.

    python examples/beyond_one_machine.py                  # 4 GB of rows, a local cluster
    python examples/beyond_one_machine.py --rows 200000    # a quick look
    python examples/beyond_one_machine.py --address tcp://scheduler:8786   # a real cluster

Needs the dask extra: pip install -e ".[fast,dask]".  The rows are generated lazily, block
by block, on the workers: no machine ever holds them all.
"""

import argparse

import numpy as np


def stream(rows, features, block, seed=0):
    """A lazy dask array of ``rows`` x ``features`` and its labels (three classes from a
    noisy linear rule), each block drawn where it is needed from its own seed."""
    import dask.array as da

    def draw(block_info=None):
        start = block_info[None]["array-location"][0][0]
        rng = np.random.default_rng([seed, start])
        n = block_info[None]["chunk-shape"][0]
        X = rng.normal(size=(n, features))
        score = X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=n)
        labels = (score > 0).astype(np.float64) + (X[:, 2] > 1.0)
        return np.column_stack([X, labels])

    blocks = (block,) * (rows // block) + ((rows % block,) if rows % block else ())
    data = da.map_blocks(draw, chunks=(blocks, (features + 1,)), dtype=np.float64)
    return data[:, :features], data[:, features].astype(np.int64)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=25_000_000)   # 25e6 x 20 x 8 B = 4 GB
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--block", type=int, default=250_000)
    parser.add_argument("--address", default=None, help="a scheduler's address; default: a "
                        "LocalCluster of two worker processes with 1.5 GB each")
    args = parser.parse_args(argv)

    import joblib
    from dask_ml.wrappers import Incremental, ParallelPostFit
    from distributed import Client, LocalCluster
    from sklearn.model_selection import GridSearchCV

    import refml_fast

    cluster = None if args.address else LocalCluster(n_workers=2, threads_per_worker=1,
                                                     memory_limit="1.5GB")
    with Client(args.address or cluster) as client:
        X, y = stream(args.rows, args.features, args.block)
        print(f"{args.rows:,} rows x {args.features} ({X.nbytes / 1e9:.2f} GB), blocks of "
              f"{args.block:,}, on {len(client.scheduler_info()['workers'])} workers")

        # 1. Learn the stream: one partial_fit per block, in order (GaussianNB pools its
        #    statistics, so this is the fit on all rows; the perceptron learns online).
        for model in (refml_fast.GaussianNB(), refml_fast.Perceptron(multi_class="multinomial")):
            learner = Incremental(model, shuffle_blocks=False).fit(X, y, classes=[0, 1, 2])
            print(f"{type(model).__name__}: accuracy on the first block "
                  f"{learner.score(X[:args.block], y[:args.block]):.3f}")

        # 2. Predict block by block with a model fitted in memory on a sample.
        sample = min(args.rows, 20_000)
        post = ParallelPostFit(refml_fast.LinearDiscriminantAnalysis()).fit(
            X[:sample].compute(), y[:sample].compute())
        counts = np.bincount(post.predict(X).compute(), minlength=3)
        print(f"LDA fitted on {sample:,} rows, predictions per class on all: {counts.tolist()}")
        frame = X[:sample].to_dask_dataframe()
        print(f"... and on a dask data frame: {post.predict(frame).compute()[:10].tolist()}")

        # 3. A grid search whose fits run on the workers.
        X_small, y_small = X[:3_000].compute(), y[:3_000].compute()
        with joblib.parallel_config(backend="dask"):
            search = GridSearchCV(refml_fast.SVC(), {"C": [0.1, 1.0, 10.0],
                                                     "kernel": ["linear", "rbf"]},
                                  cv=3, n_jobs=-1).fit(X_small, y_small)
        print(f"grid search: {search.best_params_}, score {search.best_score_:.3f}")
    if cluster is not None:
        cluster.close()


if __name__ == "__main__":
    main()
