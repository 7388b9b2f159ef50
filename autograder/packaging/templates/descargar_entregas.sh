# Fetch every student's submission into entregas/STUDENT/, for `autograder grade --lms entregas`.
# ROSTER: one student id per line, or "student clone-url"; blank lines and # comments are skipped.
# REPO_URL_TEMPLATE: the clone URL of a student's repository; {student} and {token} are filled in.
# Only NOTEBOOK.ipynb and NOTEBOOK.py are kept (symbolic links and oversized files refused), and
# the clones, whose .git/config holds the token, are deleted before anything is graded.
export GIT_TERMINAL_PROMPT=0
if [ ! -f "$ROSTER" ]; then
  echo "error: roster file $ROSTER not found (one student id per line, or: student clone-url)"
  exit 2
fi
rm -rf entregas clones
mkdir -p entregas clones
printf 'student\tcommit\tcommitted_at\tfiles\n' > commits.tsv
fetched=0
missing=0
while read -r student url _ || [ -n "$student" ]; do
  case "$student" in "" | "#"*) continue ;; esac
  if [[ ! "$student" =~ ^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$ ]]; then
    echo "skipped roster line: '$student' is not a valid student id"
    continue
  fi
  url="${url:-$REPO_URL_TEMPLATE}"
  url="${url//\{student\}/$student}"
  url="${url//\{token\}/${STUDENT_REPOS_TOKEN:-}}"
  if ! output=$(timeout 300 git clone --quiet --depth 1 --no-tags "$url" "clones/$student" 2>&1); then
    if [ -n "${STUDENT_REPOS_TOKEN:-}" ]; then output="${output//"$STUDENT_REPOS_TOKEN"/***}"; fi
    echo "$student: not fetched: ${output:-git clone failed}"
    missing=$((missing + 1))
    continue
  fi
  mkdir -p "entregas/$student"
  kept=""
  for file in "$NOTEBOOK.ipynb" "$NOTEBOOK.py"; do
    path="clones/$student/$file"
    if [ -L "$path" ]; then
      echo "$student: $file is a symbolic link; ignored"
    elif [ -f "$path" ] && [ "$(stat -c %s "$path")" -gt @MAX_BYTES@ ]; then
      echo "$student: $file is larger than @MAX_MIB@ MiB; ignored"
    elif [ -f "$path" ]; then
      cp "$path" "entregas/$student/$file"
      kept="$kept $file"
    fi
  done
  printf '%s\t%s\t%s\n' "$student" "$(git -C "clones/$student" log -1 --format='%H%x09%cI')" "${kept# }" >> commits.tsv
  if [ -z "$kept" ]; then
    echo "$student: no $NOTEBOOK.ipynb or $NOTEBOOK.py in the repository"
    rmdir "entregas/$student"
    missing=$((missing + 1))
  else
    fetched=$((fetched + 1))
  fi
done < "$ROSTER"
rm -rf clones
echo "fetched $fetched submission(s) into entregas/; $missing student(s) without one (see commits.tsv)"
if [ "$fetched" -eq 0 ]; then
  echo "error: nothing to grade"
  exit 1
fi
