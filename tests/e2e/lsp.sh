# kcontract lsp (docs/editors.md), driven by a scripted client (lsp_client.py): diagnostics
# with their ranges and codes for a broken contract and none once it is fixed, the
# formatter's edit, hover text for a standard class, and the protocol's errors.
python3 lsp_client.py "$KC" session
python3 lsp_client.py "$KC" before-init
python3 lsp_client.py "$KC" broken-framing
