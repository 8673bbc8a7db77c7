-- The lab's schema: two tables identical but for the storage engine.
-- No index on nameLast: the large workload scans and sorts, as in the 2006 study.
-- ver: the row's version, which the write workloads raise by one per update (the apps' account may
-- UPDATE this column only) and the read pages never show; sql/people.tsv does not hold it.
CREATE DATABASE IF NOT EXISTS lab CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
USE lab;

DROP TABLE IF EXISTS people_myisam, people_innodb;

CREATE TABLE people_myisam (
  id         INT NOT NULL PRIMARY KEY,
  playerID   VARCHAR(10) NOT NULL,
  nameFirst  VARCHAR(64) NOT NULL,
  nameLast   VARCHAR(64) NOT NULL,
  birthYear  SMALLINT NOT NULL,
  birthMonth TINYINT NOT NULL,
  birthDay   TINYINT NOT NULL,
  weight     SMALLINT NOT NULL,
  height     SMALLINT NOT NULL,
  bats       CHAR(1) NOT NULL,
  throws     CHAR(1) NOT NULL,
  ver        INT UNSIGNED NOT NULL DEFAULT 0
) ENGINE=MyISAM;

CREATE TABLE people_innodb LIKE people_myisam;
ALTER TABLE people_innodb ENGINE=InnoDB;
