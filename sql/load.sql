-- Loads the committed data file into both tables; run from the repository root.
USE lab;
LOAD DATA LOCAL INFILE 'sql/people.tsv' INTO TABLE people_myisam
  CHARACTER SET utf8mb4 FIELDS TERMINATED BY '\t' LINES TERMINATED BY '\n' IGNORE 1 LINES
  (id, playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay, weight, height, bats, throws);
INSERT INTO people_innodb SELECT * FROM people_myisam;
