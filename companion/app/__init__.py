"""The application: what wires the camera, the buttons, the page and the table together.

The command line (`cli`), the service at a real table (`run`), the demo on the synthetic
table (`demo`), the table's configuration file (`config`, which configures hw/ and web/),
the frame loop they share (`service`), and the commands that drive a camera or the
synthetic table (`eval_vision`, `enroll`). Only this package imports hw/ and web/; the rest
of companion/ (rules, record, vision, tracker, session, table, store) knows neither, and
hw/ and web/ never import this package. tests/test_layers.py keeps it so.
"""
