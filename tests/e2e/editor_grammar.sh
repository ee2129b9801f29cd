# The VS Code grammar (editors/vscode/syntaxes/kcontract.tmLanguage.json) under the engine VS
# Code runs it with: every .kcontract of the repository tokenizes, invalid.* only where the
# lexer reports an error, and the fixture's tokens have their scopes. Needs node and
# editors/vscode/node_modules (scripts/setup.sh installs both). The file count is written N:
# a new .kcontract anywhere does not change this output.
set -o pipefail
cd ../.. && node editors/vscode/test/tokenize.js | sed -E 's/tokenized [0-9]+ files/tokenized N files/'
