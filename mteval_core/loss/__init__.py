"""Loss-function analysis (Tate & Voss 2006) and MQM error weights as costs.

- inputs: rates, counts and case-level rows, grouped per category;
- average: the average loss, rankings, and category rankings that disagree with the overall one;
- reversal: the exact map of where each full ranking holds, and the nearest rank reversal;
- uncertainty: bootstrap over cases, or a parametric bootstrap of the counts;
- mqm: MQM error points under user weights, and their map over two weights;
- view, mqm_view: what the dashboard shows, prepared once and then read at any costs or weights;
- sources: the line that says which data the Loss page shows, and what to upload for one.

Readers live in mteval_core.io.loss_csv and mteval_core.io.mqm_tsv; figures in
mteval_core.report.figures (loss.py); the `mteval loss` command in mteval_core.cli.loss.
"""
